// Package access says, for one decoded DynamoDB request, which
// authorisations DynamoDB makes for it: the IAM action, the resource ARN and
// the request context's DynamoDB condition keys. It decides nothing; the
// policy evaluator (issue 17) takes these checks, and the request runs only
// when every check is allowed. It is pure: it reads the request and a
// Catalog of table schemas, never an item, so it can run before the engine
// and the same request always gets the same checks.
//
// The rules, with the page each comes from (Developer Guide unless said):
//
// Actions and resources (Service Authorization Reference, "Actions,
// resources, and condition keys for Amazon DynamoDB"):
//   - An operation is authorised as dynamodb:<Operation> on the table ARN,
//     or on table/T/index/I for a Query or Scan with IndexName. A TableName
//     given as an ARN is resolved through the Catalog; an ARN of another
//     account or region is kept as the resource, with no Table.
//   - ListTables, DescribeLimits and ListStreams have no resource type: "*".
//     (The Streams guide's example policy lists ListStreams under a
//     table/T/stream/* resource; such a statement does not grant it here,
//     as it would not under a "*"-only action.) DescribeEndpoints has no
//     IAM action: no checks.
//   - TagResource, UntagResource, ListTagsOfResource and the resource-policy
//     operations act on their ResourceArn; DescribeStream and
//     GetShardIterator on their StreamArn; GetRecords on the stream its
//     iterator was issued for ("Using IAM policies for DynamoDB Streams").
//     Check.Table names the table whose resource policy also applies: the
//     table itself, or the index's table; none for a stream, which has its
//     own policy (rbac-considerations).
//   - CreateTable that tags the table, or attaches a ResourcePolicy, is
//     also checked as dynamodb:TagResource or dynamodb:PutResourcePolicy on
//     the new table (the reference maps CreateTable to several actions; this
//     models the two the request itself asks for).
//   - BatchGetItem and BatchWriteItem are authorised per member table under
//     the batch action (the denial message names dynamodb:BatchWriteItem on
//     the member's table). access makes one check per table, its
//     multivalued keys the union over that table's items: with ForAllValues
//     every value must match, so that is the verdict of one check per item.
//   - TransactWriteItems and TransactGetItems are not actions: each member
//     is checked as PutItem, UpdateItem, DeleteItem, ConditionCheckItem or
//     GetItem with dynamodb:EnclosingOperation = the transaction's name
//     (transaction-apis-iam). Plain calls have no EnclosingOperation.
//   - PartiQL statements are PartiQLSelect, PartiQLInsert, PartiQLUpdate,
//     PartiQLDelete on the table or index ARN (ql-iam), one check per
//     statement; EnclosingOperation = ExecuteTransaction inside
//     ExecuteTransaction. EXISTS (a transaction's condition check) reads:
//     PartiQLSelect. A statement that does not parse cannot run and touches
//     nothing: ExecuteStatement and ExecuteTransaction return its parse
//     error (the engine's own ValidationException for it), and
//     BatchExecuteStatement leaves it out (it fails alone).
//
// Condition keys (specifying-conditions; names lowercased in Check.Keys):
//   - dynamodb:LeadingKeys is the partition key value of every item the
//     request touches: S as is, N in DynamoDB's normalized text ("1.50" is
//     "1.5", the same item), B as the standard base64 of its bytes (its wire
//     text). For a Query, the value the key condition (or legacy
//     KeyConditions EQ) gives the partition attribute of the table or index
//     queried; a multi-attribute GSI partition key contributes every one of
//     its attributes' values, so ForAllValues must allow each (fail closed).
//     PartiQL: the WHERE's partition key equality, IN list or OR of
//     equalities (ql-reference.select's non-full-scan forms), or INSERT's
//     item value.
//   - Scan: the guide leaves Scan out of its LeadingKeys example because Scan
//     "returns all items regardless of the leading keys", and the Service
//     Authorization Reference does not list LeadingKeys for Scan: a Scan,
//     and a PartiQL SELECT that is a full scan, carry no LeadingKeys. IAM's
//     ForAllValues is true for an absent key, so a policy that names Scan
//     next to a LeadingKeys condition grants every partition, here as on
//     DynamoDB; `sortkey auth check` warns when it does. A request whose
//     partition access cannot read (unknown table or index, key attribute
//     missing or not S/N/B) carries LeadingKeys = [Unbounded], a value no
//     policy can spell, so ForAllValues:StringEquals denies it and only a
//     pattern such as "*" allows it: such a request fails anyway, and under
//     a LeadingKeys policy it answers AccessDenied rather than
//     ResourceNotFound or ValidationException, so no table's existence
//     leaks.
//   - dynamodb:Attributes is the top-level attribute names the request
//     reads, writes, tests or projects: Key and Item names (the guide: a
//     policy must list the key attributes), ProjectionExpression,
//     AttributesToGet, UpdateExpression targets and the attributes its SET
//     values read, ConditionExpression, FilterExpression,
//     KeyConditionExpression, Expected, AttributeUpdates, KeyConditions,
//     QueryFilter, ScanFilter; #names resolved. An expression that does not
//     parse adds Unbounded (its names are unknown).
//   - dynamodb:Select: the Query/Scan parameter, else (API Reference)
//     SPECIFIC_ATTRIBUTES with a projection, ALL_PROJECTED_ATTRIBUTES on
//     an index, ALL_ATTRIBUTES on a table ("always has a value"). GetItem,
//     BatchGetItem, TransactGetItems members and PartiQL SELECT have no
//     Select parameter but read whole items unless they project; access
//     gives them SPECIFIC_ATTRIBUTES or ALL_ATTRIBUTES the same way, so the
//     guide's attribute-restricting policy (StringEqualsIfExists Select =
//     SPECIFIC_ATTRIBUTES) cannot be passed by omitting the projection.
//   - dynamodb:ReturnValues on PutItem, UpdateItem, DeleteItem: the
//     parameter, NONE when absent ("always has a value"); NONE for
//     transaction members; PartiQL UPDATE/DELETE: their RETURNING as a
//     ReturnValues value, NONE without; INSERT: NONE.
//   - dynamodb:ReturnConsumedCapacity on item, query, scan, batch,
//     transaction and PartiQL actions: the parameter, NONE when absent (the
//     API's default; not documented as absent-when-omitted, and NONE keeps
//     a StringEquals NONE policy from refusing ordinary requests).
//   - dynamodb:FullTableScan (ql-iam's "deny full table scan" example):
//     "true" or "false" on PartiQLSelect.
//   - Control-plane and Streams actions carry no DynamoDB condition keys:
//     Keys is nil.
package access
