# Global tables with the AWS CLI against `sortkey serve --regions separate`,
# sourced by scripts/smoke-awscli.sh (which builds $work/sortkey and defines
# the expect helpers of scripts/smoke-lib.sh and wait_status of
# scripts/smoke-awscli-s3.sh). The CLI's --region decides which region's
# tables a command acts on, through its signature's credential scope.

start_server regions_endpoint "$work/regions" --in-memory --regions separate --replication-lag 0
rddb() { aws dynamodb --endpoint-url "$regions_endpoint" "$@"; }

rddb --region us-east-1 create-table --table-name Carts --attribute-definitions AttributeName=pk,AttributeType=S \
  --key-schema AttributeName=pk,KeyType=HASH --billing-mode PAY_PER_REQUEST >/dev/null
rddb --region us-east-1 put-item --table-name Carts --item '{"pk":{"S":"before"}}'

expect_error regions-apart ResourceNotFoundException -- \
  rddb --region us-west-2 describe-table --table-name Carts

expect replica-create "UPDATING	us-west-2	CREATING" -- \
  rddb --region us-east-1 update-table --table-name Carts --replica-updates '[{"Create":{"RegionName":"us-west-2"}}]' \
    --query 'TableDescription.[TableStatus,Replicas[0].RegionName,Replicas[0].ReplicaStatus]' --output text

expect replica-describe "2019.11.21	us-east-1	ACTIVE	NEW_AND_OLD_IMAGES" -- \
  rddb --region us-west-2 describe-table --table-name Carts \
    --query 'Table.[GlobalTableVersion,Replicas[0].RegionName,Replicas[0].ReplicaStatus,StreamSpecification.StreamViewType]' --output text

expect replica-filled "before" -- \
  rddb --region us-west-2 get-item --table-name Carts --key '{"pk":{"S":"before"}}' --consistent-read --query Item.pk.S --output text

rddb --region us-west-2 put-item --table-name Carts --item '{"pk":{"S":"from-west"},"v":{"S":"w"}}'
wait_status replicated "w" -- \
  rddb --region us-east-1 get-item --table-name Carts --key '{"pk":{"S":"from-west"}}' --consistent-read --query Item.v.S --output text

expect_error_message legacy-describe GlobalTableNotFoundException "Global table not found: Global table with name: 'Carts' does not exist." -- \
  rddb --region us-east-1 describe-global-table --global-table-name Carts

expect replica-delete "us-west-2	DELETING" -- \
  rddb --region us-east-1 update-table --table-name Carts --replica-updates '[{"Delete":{"RegionName":"us-west-2"}}]' \
    --query 'TableDescription.Replicas[0].[RegionName,ReplicaStatus]' --output text
expect_error replica-gone ResourceNotFoundException -- \
  rddb --region us-west-2 describe-table --table-name Carts

# Multi-region strong consistency: three replicas, a write read at once
# in another region.
rddb --region us-east-1 create-table --table-name Counters --attribute-definitions AttributeName=pk,AttributeType=S \
  --key-schema AttributeName=pk,KeyType=HASH --billing-mode PAY_PER_REQUEST >/dev/null
expect mrsc-create "STRONG	2" -- \
  rddb --region us-east-1 update-table --table-name Counters --multi-region-consistency STRONG \
    --replica-updates '[{"Create":{"RegionName":"us-east-2"}},{"Create":{"RegionName":"us-west-2"}}]' \
    --query 'TableDescription.[MultiRegionConsistency,length(Replicas)]' --output text
rddb --region us-east-2 put-item --table-name Counters --item '{"pk":{"S":"c"},"n":{"N":"1"}}'
expect mrsc-read-at-once "1" -- \
  rddb --region us-west-2 get-item --table-name Counters --key '{"pk":{"S":"c"}}' --consistent-read --query Item.n.N --output text
