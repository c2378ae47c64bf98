# Access-control checks with the AWS CLI against `sortkey serve --auth`,
# sourced by scripts/smoke-awscli.sh (which builds $work/sortkey and defines
# the expect helpers of scripts/smoke-lib.sh). The server is a second one,
# started here with a temporary auth file: an admin, a tenant kept to its
# own partitions by dynamodb:LeadingKeys, and a user with no policy at all.
# The error checks run with AWS_MAX_ATTEMPTS=1: an error is seen once, as
# DynamoDB answered it, without the CLI's retries and back-off.

account=123456789012
shared_arn="arn:aws:dynamodb:us-east-1:$account:table/Shared"
alice_arn="arn:aws:iam::$account:user/alice"
carol_arn="arn:aws:iam::$account:user/carol"
auth_file="$work/auth.json"
cat >"$auth_file" <<EOF
{"account": "$account", "principals": [
 {"arn": "arn:aws:iam::$account:user/admin", "accessKeyId": "AKIDADMIN", "secretAccessKey": "admin-secret",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]},
 {"arn": "$alice_arn", "accessKeyId": "AKIDALICE", "secretAccessKey": "alice-secret", "tags": {"tenant": "t1"},
  "policies": [{"Version": "2012-10-17", "Statement": [{"Sid": "OwnPartitions", "Effect": "Allow",
   "Action": ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"], "Resource": "arn:aws:dynamodb:*:*:table/Shared",
   "Condition": {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["\${aws:PrincipalTag/tenant}"]}}}]}]},
 {"arn": "$carol_arn", "accessKeyId": "AKIDCAROL", "secretAccessKey": "carol-secret"}]}
EOF
start_server auth_endpoint "$work/auth" --in-memory --auth "$auth_file"

# signed_as KEY SECRET ARGS...: `aws dynamodb ARGS` signed with that key.
signed_as() {
  local id=$1 secret=$2; shift 2
  AWS_ACCESS_KEY_ID=$id AWS_SECRET_ACCESS_KEY=$secret AWS_MAX_ATTEMPTS=1 \
    aws dynamodb --endpoint-url "$auth_endpoint" "${binary_flag[@]}" "$@"
}
admin() { signed_as AKIDADMIN admin-secret "$@"; }
alice() { signed_as AKIDALICE alice-secret "$@"; }
carol() { signed_as AKIDCAROL carol-secret "$@"; }
shared_key() { printf '{"pk":{"S":"%s"},"sk":{"S":"%s"}}' "$1" "$2"; }
denied() {
  printf 'User: %s is not authorized to perform: dynamodb:%s on resource: %s because no identity-based policy allows the dynamodb:%s action' \
    "$1" "$2" "$shared_arn" "$2"
}

# A configured key, from the environment as any AWS tool reads it.
expect auth-create-table "Shared	$shared_arn" -- \
  admin create-table --table-name Shared --billing-mode PAY_PER_REQUEST \
    --attribute-definitions AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S \
    --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
    --query 'TableDescription.[TableName,TableArn]' --output text
expect auth-put-item "" -- admin put-item --table-name Shared --item "$(shared_key t2 b)"
expect auth-get-item "t2	b" -- admin get-item --table-name Shared --key "$(shared_key t2 b)" --query 'Item.[pk.S,sk.S]' --output text

# Authentication: DynamoDB's codes and messages for each way a signature fails.
expect_error_message auth-wrong-secret InvalidSignatureException \
  'The request signature we calculated does not match the signature you provided.*' -- \
  signed_as AKIDALICE not-her-secret list-tables
expect_error_message auth-unknown-key UnrecognizedClientException 'The security token included in the request is invalid*' -- \
  signed_as AKIDNOBODY some-secret list-tables
expect_error_message auth-unsigned MissingAuthenticationTokenException 'Request is missing Authentication Token' -- \
  env AWS_MAX_ATTEMPTS=1 aws dynamodb --endpoint-url "$auth_endpoint" --no-sign-request list-tables
# A skewed clock: the CLI signs with the time it reads, so faketime runs it
# 16 minutes off, past DynamoDB's 15-minute window. (The server is a Go
# program, which reads the clock without libc: faketime cannot move its
# clock, only the client's, which is the skew users meet anyway.)
if command -v faketime >/dev/null 2>&1; then
  expect_error_message auth-clock-behind InvalidSignatureException 'Signature expired: * is now earlier than * (* - 15 min.)' -- \
    faketime -f -16m env AWS_ACCESS_KEY_ID=AKIDADMIN AWS_SECRET_ACCESS_KEY=admin-secret AWS_MAX_ATTEMPTS=1 \
      aws dynamodb --endpoint-url "$auth_endpoint" list-tables
  expect_error_message auth-clock-ahead InvalidSignatureException 'Signature not yet current: * is still later than * (* + 15 min.)' -- \
    faketime -f +16m env AWS_ACCESS_KEY_ID=AKIDADMIN AWS_SECRET_ACCESS_KEY=admin-secret AWS_MAX_ATTEMPTS=1 \
      aws dynamodb --endpoint-url "$auth_endpoint" list-tables
else
  fail "auth-clock-skew: faketime is missing (apt-get install faketime)"
fi

# Fine-grained access: alice reaches only the partitions of her tenant tag.
expect_error_message auth-other-tenant AccessDeniedException "$(denied "$alice_arn" GetItem)" -- \
  alice get-item --table-name Shared --key "$(shared_key t2 b)"
expect_error_message auth-other-tenant-write AccessDeniedException "$(denied "$alice_arn" PutItem)" -- \
  alice put-item --table-name Shared --item "$(shared_key t2 x)"
expect auth-own-tenant-put "" -- alice put-item --table-name Shared --item "$(shared_key t1 a)"
expect auth-own-tenant-get "t1	a" -- alice get-item --table-name Shared --key "$(shared_key t1 a)" --query 'Item.[pk.S,sk.S]' --output text
expect auth-denied-wrote-nothing "2" -- admin scan --table-name Shared --query Count --output text

# A resource-based policy: while it grants carol GetItem on the table, she
# reads it; before and after, she has no policy that allows it.
grant='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"'$carol_arn'"},"Action":"dynamodb:GetItem","Resource":"'$shared_arn'"}]}'
expect_error_message auth-no-policy AccessDeniedException "$(denied "$carol_arn" GetItem)" -- \
  carol get-item --table-name Shared --key "$(shared_key t1 a)"
revision=$(admin put-resource-policy --resource-arn "$shared_arn" --policy "$grant" --query RevisionId --output text 2>&1 || true)
expect auth-get-resource-policy "$grant	$revision" -- \
  admin get-resource-policy --resource-arn "$shared_arn" --query '[Policy,RevisionId]' --output text
expect auth-resource-policy-grants "t1" -- \
  carol get-item --table-name Shared --key "$(shared_key t1 a)" --query Item.pk.S --output text
expect auth-delete-resource-policy "$revision" -- \
  admin delete-resource-policy --resource-arn "$shared_arn" --query RevisionId --output text
expect_error auth-resource-policy-gone PolicyNotFoundException -- admin get-resource-policy --resource-arn "$shared_arn"
expect_error_message auth-grant-withdrawn AccessDeniedException "$(denied "$carol_arn" GetItem)" -- \
  carol get-item --table-name Shared --key "$(shared_key t1 a)"

# `sortkey auth check` decides a request offline, as the server would:
# ALLOW exits 0, DENY exits 1.
check_request() {
  printf '{"operation": "GetItem", "request": {"TableName": "Shared", "Key": %s},
    "tables": [{"TableName": "Shared", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]}]}' "$1" >"$2"
}
check_request "$(shared_key t1 a)" "$work/own.json"
check_request "$(shared_key t2 b)" "$work/other.json"
expect_exit auth-check-allow 0 "GetItem as $alice_arn*ALLOW dynamodb:GetItem on $shared_arn*result: ALLOW" -- \
  "$work/sortkey" auth check --auth "$auth_file" --as "$alice_arn" --request "$work/own.json"
expect_exit auth-check-deny 1 "GetItem as $alice_arn*DENY dynamodb:GetItem on $shared_arn*AccessDeniedException: $(denied "$alice_arn" GetItem)*result: DENY" -- \
  "$work/sortkey" auth check --auth "$auth_file" --as "$alice_arn" --request "$work/other.json"
