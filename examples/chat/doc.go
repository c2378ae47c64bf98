// Command chat is the chat application of reference design 002 (users,
// communities, group and private chats, their messages, notifications and
// chat requests) as a data-access layer on the AWS SDK for Go v2: six tables, an inverted pair of sparse GSIs, a
// location hierarchy in a GSI sort key, a sparse GSI of pending chat
// requests that items leave when PendingId is removed, and notifications
// whose sort key puts unread before read.
//
// go run ./examples/chat starts an embedded in-memory sortkey, loads
// sample data and prints every access pattern; --endpoint URL runs the
// same against any DynamoDB endpoint.
package main
