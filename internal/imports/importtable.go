package imports

import (
	"context"
	"os"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/jobs"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// ImportTable checks the request, creates its table and starts the import
// in the background; the answer says IN_PROGRESS.
func (m *Manager) ImportTable(_ context.Context, in *protocol.ImportTableInput) (*protocol.ImportTableOutput, error) {
	if err := checkImport(in); err != nil {
		return nil, err
	}
	create := createInput(in.TableCreationParameters)
	if err := engine.CheckImportTable(create); err != nil {
		return nil, err
	}
	if j, err := m.reused(in); j != nil || err != nil {
		return output(j), err
	}
	root, err := m.bucketRoot(in.S3BucketSource)
	if err != nil {
		return nil, err
	}
	table, err := m.e.CreateImportTable(create)
	if err != nil {
		root.Close() // no import took it
		return nil, err
	}
	j := m.register(in, table)
	out := output(j) // before the job can move on: the answer says IN_PROGRESS
	m.wg.Go(func() { m.run(j, in, root) })
	return out, nil
}

func output(j *job) *protocol.ImportTableOutput {
	if j == nil {
		return nil
	}
	return &protocol.ImportTableOutput{ImportTableDescription: j.Describe()}
}

// checkImport judges the members ImportTable adds to a table's creation.
func checkImport(in *protocol.ImportTableInput) error {
	switch {
	case in.InputFormat == nil:
		return apierr.Validationf(msgRequired, "inputFormat")
	case in.S3BucketSource == nil:
		return apierr.Validationf(msgRequired, "s3BucketSource")
	case in.S3BucketSource.S3Bucket == nil:
		return apierr.Validationf(msgRequired, "s3BucketSource.s3Bucket")
	case in.TableCreationParameters == nil:
		return apierr.Validationf(msgRequired, "tableCreationParameters")
	}
	if err := checkFormat(*in.InputFormat, in.InputFormatOptions); err != nil {
		return err
	}
	if c := in.InputCompressionType; c != nil {
		return checkEnum(*c, "inputCompressionType", "GZIP, ZSTD, NONE")
	}
	return nil
}

func checkFormat(format string, opts *protocol.InputFormatOptions) error {
	if err := checkEnum(format, "inputFormat", "DYNAMODB_JSON, ION, CSV"); err != nil {
		return err
	}
	if opts == nil || opts.Csv == nil {
		return nil
	}
	if format != dataio.FormatCSV {
		return apierr.Validationf(msgCSVOptions)
	}
	if d := opts.Csv.Delimiter; d != nil && !validDelimiter(*d) {
		return apierr.Validationf(msgDelimiter, *d)
	}
	return nil
}

func validDelimiter(d string) bool {
	switch d {
	case ",", "\t", ":", ";", "|", " ":
		return true
	}
	return false
}

func checkEnum(v, member, set string) error {
	if slices.Contains(strings.Split(set, ", "), v) {
		return nil
	}
	return apierr.Validationf(msgEnum, v, member, set)
}

// createInput is the CreateTable request TableCreationParameters make.
func createInput(p *protocol.TableCreationParameters) *protocol.CreateTableInput {
	return &protocol.CreateTableInput{
		TableName: p.TableName, AttributeDefinitions: p.AttributeDefinitions, KeySchema: p.KeySchema,
		BillingMode: p.BillingMode, ProvisionedThroughput: p.ProvisionedThroughput,
		OnDemandThroughput: p.OnDemandThroughput, GlobalSecondaryIndexes: p.GlobalSecondaryIndexes,
		SSESpecification: p.SSESpecification, VectorIndexes: p.VectorIndexes,
	}
}

// bucketRoot opens the folder of the source's bucket, once its prefix is
// checked; the import reads only through it.
func (m *Manager) bucketRoot(src *protocol.S3BucketSource) (*os.Root, error) {
	m.mu.Lock()
	buckets := m.buckets
	m.mu.Unlock()
	root, err := buckets.Use("ImportTable", *src.S3Bucket, deref(src.S3KeyPrefix))
	if err != nil {
		return nil, apierr.Validationf("%s", err.Error())
	}
	return root, nil
}

// reused is the import an earlier request with the same ClientToken
// started within the token's window, or ImportConflictException when that
// request asked for something else.
func (m *Manager) reused(in *protocol.ImportTableInput) (*job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, conflict := jobs.Reuse(m.jobs, in.ClientToken, in, m.e.Now())
	if conflict {
		return nil, apierr.New(apierr.ImportConflict, msgTokenConflict)
	}
	return j, nil
}

// register records a new import, IN_PROGRESS, of the table just created.
func (m *Manager) register(in *protocol.ImportTableInput, table *protocol.TableDescription) *job {
	now := m.e.Now()
	id := dataio.NewJobID(now)
	j := jobs.New(protocol.ImportTableDescription{
		ClientToken: in.ClientToken, ImportArn: table.TableArn + "/import/" + id, ImportStatus: statusInProgress,
		InputFormat: *in.InputFormat, InputCompressionType: compression(in), InputFormatOptions: in.InputFormatOptions,
		S3BucketSource: in.S3BucketSource, StartTime: jobs.Epoch(now), TableArn: table.TableArn,
		TableCreationParameters: in.TableCreationParameters, TableId: table.TableId,
		CloudWatchLogGroupArn: ptr(m.logGroupArn()),
	}, in.ClientToken, in, now)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.jobs = append(m.jobs, j)
	m.byArn[j.Describe().ImportArn] = j
	return j
}

// logGroupArn names CloudWatch's log group for imports, as DynamoDB's
// descriptions do; the events are in a local file (see run).
func (m *Manager) logGroupArn() string {
	return "arn:aws:logs:" + m.e.Region() + ":" + m.e.Account() + ":log-group:/aws-dynamodb/imports:*"
}

func compression(in *protocol.ImportTableInput) string {
	if in.InputCompressionType == nil {
		return dataio.CompressionNone
	}
	return *in.InputCompressionType
}

// Import statuses.
const (
	statusInProgress = "IN_PROGRESS"
	statusCompleted  = "COMPLETED"
	statusFailed     = "FAILED"
)

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptr[T any](v T) *T { return &v }
