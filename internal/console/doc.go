// Package console is sortkey's web console: server-rendered pages under
// /console/ that show tables, their item collections and how each index
// sees the same items, what Time to Live expires next, a table's stream
// records as they happen, and the loaded design with its live coverage.
//
// Why it looks the way it does:
//
//   - It reads data only through the DynamoDB API, as any client would:
//     it is given the server's API handler and POSTs JSON 1.0 requests
//     (ListTables, DescribeTable, DescribeTimeToLive, Scan, Query, and the
//     Streams API's DescribeStream, GetShardIterator, GetRecords) to it in
//     process. It never reaches into the engine, so it sees exactly what a
//     client sees and can never show more than the API allows.
//   - Pages are html/template rendered on the server, with an embedded
//     stylesheet and no JavaScript but the stream tail's and the live
//     page's small embedded tail.js and live.js (polling JSON, writing
//     with textContent): nothing to build,
//     nothing fetched from the network, and every page testable with plain HTTP as well as in a
//     browser. html/template escapes every item value, and the
//     Content-Security-Policy (default-src 'self') refuses inline script
//     should any slip through.
//   - Every page has its own URL (/console/, /console/tables/NAME,
//     /console/tables/NAME/indexes/INDEX), so a link can be shared; paging
//     is a ?start= token (the LastEvaluatedKey as base64url JSON) and a
//     ?limit= page size, so a page never loads a table whole.
//   - Its only writes are the item forms (items.go), the table forms
//     (tablesw.go, tableupd.go) and the PartiQL editor (partiql.go), and
//     they write through the API too (PutItem, DeleteItem, CreateTable,
//     DeleteTable, UpdateTable, UpdateTimeToLive, ExecuteStatement); item
//     writes are conditional
//     on the item being as the user loaded it. A POST is taken only by a route that opts in
//     (postRoute), only from the console's own origin and only with a form
//     token this process signed for that very form (csrf.go), so another
//     site cannot make a user's browser write.
//   - The design and its coverage report getter are handed to the console
//     (SetDesign) by whoever opened the DB, as is the server's clock
//     (SetClock), as is the getter of the live numbers (SetLive, from
//     internal/metrics): the console still never reaches into the engine,
//     and its TTL view tells time as the sweeper does.
//   - With access control on, the console is one more client that needs a
//     principal: a person signs in (signin.go) with an access key id and
//     secret from the auth file, checked by the auth side in constant
//     time; the session lives on the server behind a random cookie. Every
//     API call a page makes then carries that principal in its context
//     (server.AsCaller, which no HTTP request can set) and is authorised by
//     its policies exactly as a signed request would be, the principal
//     looked up afresh each time so that a reload of the auth file takes
//     effect at once. What a policy denies shows as the API's
//     AccessDeniedException; the console never reads past a policy.
package console
