// Package sigv4 verifies AWS Signature Version 4 on incoming DynamoDB HTTP
// requests, the first step of sortkey's access control (issue 17): it turns
// a request into the access key ID that signed it, or into the exact error
// DynamoDB would answer with, so that SDKs, the CLI and tools see the same
// failures as against AWS. The IAM policy engine and the server glue build on
// Verifier.Verify; nothing here knows about tables or actions.
//
// # What is checked, in AWS's order
//
//  1. An Authorization header (or, failing that, presigned X-Amz-* query
//     parameters); neither is MissingAuthenticationTokenException.
//  2. Its form: algorithm, then Credential, SignedHeaders and Signature as
//     key=value pairs split on commas and whitespace, and an X-Amz-Date or Date
//     header. What is missing is listed in one IncompleteSignatureException
//     that ends by echoing the header, as AWS does.
//  3. The credential scope: date equal to the request's date, the verifier's
//     region and service, terminator aws4_request (InvalidSignatureException).
//  4. host among the signed headers.
//  5. The clock: 15 minutes either way, DynamoDB's window.
//  6. The access key and session token (UnrecognizedClientException).
//  7. The signature itself, over AWS's canonical request, compared in
//     constant time.
//
// The payload is the body exactly as received, before any Content-Encoding is
// undone, because that is what clients sign. An X-Amz-Content-Sha256 header
// must equal its hash; DynamoDB has no unsigned-payload mode. The path is
// encoded as the SDKs sign it, without dot-segment normalisation: DynamoDB's
// only path is "/".
//
// # Texts
//
// The texts are DynamoDB's as quoted in public bug reports of its responses
// (for example aws/aws-sdk-php#2469, pynamodb/PynamoDB#1241,
// baopham/laravel-dynamodb#228); a few come from other AWS JSON services
// that share DynamoDB's front end (coral). Confirmed for DynamoDB: missing
// token, signature mismatch, region and service scope, expired signature,
// invalid security token, and host not signed (observed as
// InvalidSignatureException, not IncompleteSignatureException). Seen on
// sibling services: the missing-parameter list, the missing equal-sign form,
// the date-scope form (its modern, detail-free wording), the "named as a
// SignedHeader" form. Inferred from AWS's pattern, unconfirmed: the
// unsupported algorithm, credential shape, date format, terminator and the
// presigned-request texts.
//
// A signature mismatch does not include the canonical request or string to
// sign: DynamoDB responses before about 2016 did, current ones (2024 reports)
// end after "Consult the service documentation for details.".
//
// # Cost
//
// Deriving a signing key takes four HMACs, so keys are cached per access key,
// secret, date, region and service. The secret is part of the cache key, so
// rotating a secret never reuses the old signing key; a request must be
// within the clock window before a key is derived, so live dates are at most
// two and older ones are dropped as a new date arrives.
package sigv4
