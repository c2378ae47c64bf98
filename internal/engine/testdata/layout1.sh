#!/bin/bash
# Writes testdata/layout1: a data directory in sortkey's first layout (partitions
# ordered by FNV-1a), made by a sortkey built before catalog format 2:
#
#   git worktree add ../old 492d267 && (cd ../old && go build -o sortkey-old ./cmd/sortkey)
#   testdata/layout1.sh ../old/sortkey-old testdata/layout1
#
# It needs the AWS CLI (v1 wrote the fixture: it base64-encodes a B value's
# text once more, so the blobs table holds the bytes of that text).

set -euo pipefail
OLD=$1; DIR=$2; PORT=8123; LOG=$(mktemp)
rm -rf "$DIR"
"$OLD" serve --addr 127.0.0.1:$PORT --data-dir "$DIR" --clock virtual --clock-start 2026-11-01T00:00:00Z >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
export AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=
for i in $(seq 50); do curl -s localhost:$PORT/ >/dev/null && break; sleep 0.1; done
a() { aws --endpoint-url http://127.0.0.1:$PORT dynamodb "$@" >/dev/null; }
clock() { curl -s -X POST localhost:$PORT/sortkey/clock -d "{\"advance\":\"$1\"}" >/dev/null; }
a create-table --table-name orders \
  --attribute-definitions AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S \
    AttributeName=g1,AttributeType=S AttributeName=g2,AttributeType=N AttributeName=gs,AttributeType=S AttributeName=ls,AttributeType=N \
  --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
  --global-secondary-indexes '[{"IndexName":"byPlace","KeySchema":[{"AttributeName":"g1","KeyType":"HASH"},{"AttributeName":"g2","KeyType":"HASH"},{"AttributeName":"gs","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]' \
  --local-secondary-indexes '[{"IndexName":"byNum","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"ls","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]' \
  --billing-mode PAY_PER_REQUEST --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES
a create-table --table-name counters --attribute-definitions AttributeName=n,AttributeType=N \
  --key-schema AttributeName=n,KeyType=HASH --billing-mode PAY_PER_REQUEST
a create-table --table-name blobs --attribute-definitions AttributeName=b,AttributeType=B \
  --key-schema AttributeName=b,KeyType=HASH --billing-mode PAY_PER_REQUEST
a update-continuous-backups --table-name orders --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true
for p in A B C D; do
  for i in 0 1 2 3 4; do
    a put-item --table-name orders --item "{\"pk\":{\"S\":\"$p\"},\"sk\":{\"S\":\"$i\"},\"g1\":{\"S\":\"place-$i\"},\"g2\":{\"N\":\"$((i % 2))\"},\"gs\":{\"S\":\"$p\"},\"ls\":{\"N\":\"$((10 - i))\"},\"v\":{\"N\":\"1\"}}"
  done
done
# a partition key with a NUL byte, which the key encoding escapes
a put-item --table-name orders --item '{"pk":{"S":"nul\u0000key"},"sk":{"S":"0"},"v":{"N":"1"}}'
for n in $(seq -5 14); do a put-item --table-name counters --item "{\"n\":{\"N\":\"$n\"},\"c\":{\"N\":\"$n\"}}"; done
for b in AA== AQ== Ag== /w== AAEC; do a put-item --table-name blobs --item "{\"b\":{\"B\":\"$b\"}}"; done
clock 10m
a create-backup --table-name orders --backup-name before-changes
clock 10m
# 2026-11-01T00:20:00Z: the point in time the test restores to
clock 10m
for p in A C; do
  a update-item --table-name orders --key "{\"pk\":{\"S\":\"$p\"},\"sk\":{\"S\":\"1\"}}" --update-expression 'SET v = :v' --expression-attribute-values '{":v":{"N":"2"}}'
  a delete-item --table-name orders --key "{\"pk\":{\"S\":\"$p\"},\"sk\":{\"S\":\"2\"}}"
done
a put-item --table-name orders --item '{"pk":{"S":"E"},"sk":{"S":"0"},"v":{"N":"2"}}'
clock 10m
kill $PID; wait $PID 2>/dev/null || true
trap - EXIT
du -sh "$DIR"; ls "$DIR"
