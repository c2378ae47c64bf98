package conformance_test

const (
	validation = "ValidationException"
	oneError   = "1 validation error detected: "
)
