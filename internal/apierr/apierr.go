package apierr

import (
	"errors"
	"fmt"
	"log/slog"
)

// Code is a DynamoDB error code, the part of __type after '#'.
type Code string

// The codes sortkey can return. Add one here and in table, or TestTableComplete fails.
const (
	AccessDenied                  Code = "AccessDeniedException"
	BackupInUse                   Code = "BackupInUseException"
	BackupNotFound                Code = "BackupNotFoundException"
	ConditionalCheckFailed        Code = "ConditionalCheckFailedException"
	ContinuousBackupsUnavailable  Code = "ContinuousBackupsUnavailableException"
	ExportConflict                Code = "ExportConflictException"
	ExportNotFound                Code = "ExportNotFoundException"
	InvalidExportTime             Code = "InvalidExportTimeException"
	InvalidRestoreTime            Code = "InvalidRestoreTimeException"
	PITRUnavailable               Code = "PointInTimeRecoveryUnavailableException"
	TableAlreadyExists            Code = "TableAlreadyExistsException"
	TableNotFound                 Code = "TableNotFoundException"
	DuplicateItem                 Code = "DuplicateItemException"
	ExpiredIterator               Code = "ExpiredIteratorException"
	IdempotentParameterMismatch   Code = "IdempotentParameterMismatchException"
	ImportConflict                Code = "ImportConflictException"
	ImportNotFound                Code = "ImportNotFoundException"
	IncompleteSignature           Code = "IncompleteSignatureException"
	InternalServerError           Code = "InternalServerError"
	InvalidSignature              Code = "InvalidSignatureException"
	ItemCollectionSizeLimit       Code = "ItemCollectionSizeLimitExceededException"
	LimitExceeded                 Code = "LimitExceededException"
	MissingAuthenticationToken    Code = "MissingAuthenticationTokenException"
	PolicyNotFound                Code = "PolicyNotFoundException"
	ProvisionedThroughputExceeded Code = "ProvisionedThroughputExceededException"
	RequestEntityTooLarge         Code = "RequestEntityTooLarge"
	RequestLimitExceeded          Code = "RequestLimitExceeded"
	GlobalTableNotFound           Code = "GlobalTableNotFoundException"
	ReplicatedWriteConflict       Code = "ReplicatedWriteConflictException"
	ResourceInUse                 Code = "ResourceInUseException"
	ResourceNotFound              Code = "ResourceNotFoundException"
	Serialization                 Code = "SerializationException"
	ServiceUnavailable            Code = "ServiceUnavailable"
	Throttling                    Code = "ThrottlingException"
	TransactionCanceled           Code = "TransactionCanceledException"
	TrimmedDataAccess             Code = "TrimmedDataAccessException"
	TransactionConflict           Code = "TransactionConflictException"
	TransactionInProgress         Code = "TransactionInProgressException"
	UnknownOperation              Code = "UnknownOperationException"
	UnrecognizedClient            Code = "UnrecognizedClientException"
	Validation                    Code = "ValidationException"
)

// The namespaces DynamoDB puts in front of a code: coral's for errors raised
// by the service framework (model validation, framing, auth), DynamoDB's own
// for errors of the database.
const (
	nsDynamoDB = "com.amazonaws.dynamodb.v20120810#"
	nsCoral    = "com.amazon.coral.service#"
	nsValidate = "com.amazon.coral.validate#"
)

// The key an error body carries its text under. Coral's framework writes
// SerializationException and AccessDeniedException with a capitalised
// "Message" (observed on AWS); every other error uses "message".
const (
	lower = "message"
	upper = "Message"
)

type entry struct {
	namespace  string
	status     int
	messageKey string
}

var table = map[Code]entry{
	AccessDenied:                  {nsCoral, 400, upper},
	BackupInUse:                   {nsDynamoDB, 400, lower},
	BackupNotFound:                {nsDynamoDB, 400, lower},
	ConditionalCheckFailed:        {nsDynamoDB, 400, lower},
	ContinuousBackupsUnavailable:  {nsDynamoDB, 400, lower},
	ExportConflict:                {nsDynamoDB, 400, lower},
	ExportNotFound:                {nsDynamoDB, 400, lower},
	InvalidExportTime:             {nsDynamoDB, 400, lower},
	InvalidRestoreTime:            {nsDynamoDB, 400, lower},
	PITRUnavailable:               {nsDynamoDB, 400, lower},
	TableAlreadyExists:            {nsDynamoDB, 400, lower},
	TableNotFound:                 {nsDynamoDB, 400, lower},
	DuplicateItem:                 {nsDynamoDB, 400, lower},
	ExpiredIterator:               {nsDynamoDB, 400, lower},
	IdempotentParameterMismatch:   {nsDynamoDB, 400, lower},
	ImportConflict:                {nsDynamoDB, 400, lower},
	GlobalTableNotFound:           {nsDynamoDB, 400, lower},
	ImportNotFound:                {nsDynamoDB, 400, lower},
	IncompleteSignature:           {nsCoral, 400, lower},
	InternalServerError:           {nsDynamoDB, 500, lower},
	InvalidSignature:              {nsCoral, 400, lower},
	ItemCollectionSizeLimit:       {nsDynamoDB, 400, lower},
	LimitExceeded:                 {nsDynamoDB, 400, lower},
	MissingAuthenticationToken:    {nsCoral, 400, lower},
	PolicyNotFound:                {nsDynamoDB, 400, lower},
	ProvisionedThroughputExceeded: {nsDynamoDB, 400, lower},
	RequestEntityTooLarge:         {nsCoral, 413, lower},
	RequestLimitExceeded:          {nsDynamoDB, 400, lower},
	ReplicatedWriteConflict:       {nsDynamoDB, 400, lower},
	ResourceInUse:                 {nsDynamoDB, 400, lower},
	ResourceNotFound:              {nsDynamoDB, 400, lower},
	Serialization:                 {nsCoral, 400, upper},
	ServiceUnavailable:            {nsCoral, 503, lower},
	Throttling:                    {nsCoral, 400, lower},
	TransactionCanceled:           {nsDynamoDB, 400, lower},
	TrimmedDataAccess:             {nsDynamoDB, 400, lower},
	TransactionConflict:           {nsDynamoDB, 400, lower},
	TransactionInProgress:         {nsDynamoDB, 400, lower},
	UnknownOperation:              {nsCoral, 400, lower},
	UnrecognizedClient:            {nsCoral, 400, lower},
	Validation:                    {nsValidate, 400, lower},
}

// Error is an error as a DynamoDB client sees it.
type Error struct {
	Code    Code
	Message string
	// Item is the existing item returned with a ConditionalCheckFailedException
	// when ReturnValuesOnConditionCheckFailure is ALL_OLD; any JSON-marshalable value.
	Item any
	// CancellationReasons goes with a TransactionCanceledException: one
	// entry per action, in request order; any JSON-marshalable value.
	CancellationReasons any
	// ThrottlingReasons goes with a throttling error: what was throttled
	// and why; any JSON-marshalable value.
	ThrottlingReasons any
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Type is the wire __type: namespace#Code.
func (e *Error) Type() string { return table[e.Code].namespace + string(e.Code) }

// MessageKey is the JSON key the wire body carries Message under.
func (e *Error) MessageKey() string {
	if k := table[e.Code].messageKey; k != "" {
		return k
	}
	return lower
}

// Status is the HTTP status DynamoDB answers with for this code.
func (e *Error) Status() int {
	if s := table[e.Code].status; s != 0 {
		return s
	}
	return 500
}

// New returns an error with code c and a formatted message.
func New(c Code, format string, args ...any) *Error {
	if len(args) == 0 {
		return &Error{Code: c, Message: format}
	}
	return &Error{Code: c, Message: fmt.Sprintf(format, args...)}
}

// Validationf is New(Validation, ...), the most common error by far.
func Validationf(format string, args ...any) *Error { return New(Validation, format, args...) }

// internalMessage is all a client learns of a failure inside sortkey.
const internalMessage = "Internal server error"

// Wrap returns err as an *Error. An error that is not already one is logged
// and replaced by a generic InternalServerError: its text may name files,
// keys or internals that a client must never see.
func Wrap(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	slog.Error("internal error", "err", err)
	return &Error{Code: InternalServerError, Message: internalMessage}
}

// Codes lists every code in the table, for tests.
func Codes() []Code {
	out := make([]Code, 0, len(table))
	for c := range table {
		out = append(out, c)
	}
	return out
}

// msgUnsupported answers an operation DynamoDB has and sortkey does not
// serve. DynamoDB itself never says this (it answers every operation it
// has), so the text is sortkey's, and names sortkey so that nobody mistakes
// it for DynamoDB's.
const msgUnsupported = "sortkey does not support the DynamoDB operation %s"

// Unsupported is the UnknownOperationException of operation op, one that
// DynamoDB serves and sortkey does not. A target that names no operation
// at all keeps DynamoDB's empty message.
func Unsupported(op string) *Error { return New(UnknownOperation, msgUnsupported, op) }

// Is reports whether err is an API error of code c.
func Is(err error, c Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == c
}
