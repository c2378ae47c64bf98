package dataio

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// The export layout's fixed names, from DynamoDB's "table export output
// format" page.
const (
	exportRoot      = "AWSDynamoDB"
	startedFile     = "_started"
	summaryFile     = "manifest-summary.json"
	summaryChecksum = "manifest-summary.checksum"
	filesFile       = "manifest-files.json"
	filesChecksum   = "manifest-files.checksum"
	dataDir         = "data"
	manifestVersion = "2020-06-30"
	// incrementalVersion is the version an incremental export's summary
	// carries (from the documentation's example).
	incrementalVersion = "2023-08-01"
	incrementalType    = "INCREMENTAL_EXPORT"
	FormatJSON         = "DYNAMODB_JSON"
	FormatION          = "ION"
	FormatCSV          = "CSV"
	timeLayout         = "2006-01-02T15:04:05.000Z"
	dataFileSuffix     = ".json.gz"
	exportIDRandLen    = 4 // bytes, written as 8 hex digits
	dataNameRandLen    = 16
	maxLineBytes       = 4 << 20
	batchSize          = 25 // BatchWriteItem's limit
	defaultWriters     = 4
	defaultSegments    = 4
	defaultBatchSlop   = 2 // batches queued per writer
)

// Summary is manifest-summary.json. Pointer fields are written as null
// when a local export has nothing to put there (no bucket, no SSE). A
// full export has exportTime; an incremental one has its window instead,
// and outputView and exportType.
type Summary struct {
	Version            string  `json:"version"`
	ExportArn          string  `json:"exportArn"`
	StartTime          string  `json:"startTime"`
	EndTime            string  `json:"endTime"`
	TableArn           string  `json:"tableArn"`
	TableID            string  `json:"tableId"`
	ExportTime         string  `json:"exportTime,omitempty"`
	ExportFromTime     string  `json:"exportFromTime,omitempty"`
	ExportToTime       string  `json:"exportToTime,omitempty"`
	S3Bucket           *string `json:"s3Bucket"`
	S3Prefix           *string `json:"s3Prefix"`
	S3SseAlgorithm     *string `json:"s3SseAlgorithm"`
	S3SseKmsKeyID      *string `json:"s3SseKmsKeyId"`
	ManifestFilesS3Key string  `json:"manifestFilesS3Key"`
	BilledSizeBytes    int64   `json:"billedSizeBytes"`
	ItemCount          int64   `json:"itemCount"`
	OutputFormat       string  `json:"outputFormat"`
	OutputView         string  `json:"outputView,omitempty"`
	ExportType         string  `json:"exportType,omitempty"`
}

// FileEntry is one line of manifest-files.json.
type FileEntry struct {
	ItemCount     int64  `json:"itemCount"`
	MD5Checksum   string `json:"md5Checksum"`
	ETag          string `json:"etag"`
	DataFileS3Key string `json:"dataFileS3Key"`

	billed int64 // the items' size, for the summary's billedSizeBytes
}

// NewJobID is DynamoDB's form of an ExportId, and of an import's id: the
// start time in milliseconds, 14 digits, a dash and 8 random hex digits.
func NewJobID(start time.Time) string {
	b := make([]byte, exportIDRandLen)
	rand.Read(b)
	return fmt.Sprintf("%014d-%s", start.UnixMilli(), hex.EncodeToString(b))
}

// newDataName is a data file's random name, lower-case base32 as in the
// documentation's examples.
func newDataName(suffix string) string {
	b := make([]byte, dataNameRandLen)
	rand.Read(b)
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	return strings.ToLower(enc.EncodeToString(b)) + suffix
}

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// md5Forms are the forms an MD5 is written in: base64 (md5Checksum, as
// S3's Content-MD5) and hex (etag, as S3's ETag of a one-part upload).
func md5Forms(sum []byte) (b64, hexed string) {
	return base64.StdEncoding.EncodeToString(sum), hex.EncodeToString(sum)
}

// checksumMatches accepts a checksum file's content in either MD5 form:
// the documentation does not say which one DynamoDB writes.
func checksumMatches(content string, data []byte) bool {
	sum := md5.Sum(data)
	b64, hexed := md5Forms(sum[:])
	c := strings.TrimSpace(content)
	return c == b64 || strings.EqualFold(c, hexed)
}
