package conformance_test

// The validation-order tests are transcripts now:
// conformance/testdata/order/validation.txt.

// notFound is the type of a missing table's error, used across the suite.
const notFound = "ResourceNotFoundException"
