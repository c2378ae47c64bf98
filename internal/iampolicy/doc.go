// Package iampolicy parses IAM policy documents and evaluates one request
// against them, as the IAM User Guide specifies (policy grammar, elements,
// condition operators, policy variables, set operators, evaluation logic).
//
// sortkey uses it for access control: identity policies attached to the
// configured principals and resource-based policies attached to tables and
// streams. Users paste their AWS policies unchanged, so the grammar and the
// matching rules are IAM's, not a simplified dialect; where IAM refuses a
// document, Parse refuses it with an IAM-style detail message.
//
// Parse compiles everything once (wildcard patterns, variables, CIDRs,
// dates, numbers), so Evaluate only walks compiled statements and, in the
// common case, does not allocate. A *Policy is immutable and safe for
// concurrent use.
//
// Choices where the documentation leaves room (each is IAM's documented
// behaviour where one exists):
//
//   - An account principal ("123456789012" or arn:aws:iam::123456789012:root)
//     matches every principal of that account, as IAM delegates to the
//     account. A role ARN also matches that role's assumed-role sessions.
//   - Unknown dynamodb action names are refused only in Resource policies,
//     as DynamoDB's PutResourcePolicy does; IAM accepts them in identity
//     policies, so Parse does too.
//   - A plain (non-set) operator against a multivalued context key is true
//     when any request value matches; its negated form is true when none does.
//   - A policy variable whose key is absent (or multivalued) and has no
//     default makes the element that holds it evaluate false: the statement
//     does not apply, whatever the operator's polarity.
//   - aws:PrincipalArn and aws:PrincipalAccount fall back to Request.Principal
//     and Request.Account; time keys (aws:CurrentTime, aws:EpochTime) come only
//     from the caller's Context, so evaluation never reads the clock.
//   - Numeric, date, IP, binary and boolean values that cannot be parsed are
//     refused at Parse time rather than silently never matching.
package iampolicy
