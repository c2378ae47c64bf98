package designtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// recorder is a TB that keeps what the checks report.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// want fails t unless r holds exactly one report per wanted text, each
// containing it, in order.
func (r *recorder) want(t *testing.T, wants ...string) {
	t.Helper()
	if len(r.errs) != len(wants) {
		t.Fatalf("reports %q, want %d of them: %q", r.errs, len(wants), wants)
	}
	for i, w := range wants {
		if !strings.Contains(r.errs[i], w) {
			t.Errorf("report %q lacks %q", r.errs[i], w)
		}
	}
}

const shopDesign = `version: 1
name: Shop
tables:
  - name: T
    partitionKey: {name: PK, type: S}
    sortKey: {name: SK, type: S}
    globalSecondaryIndexes:
      - name: ByEmail
        partitionKey: {name: email, type: S}
        projection: {type: KEYS_ONLY}
entities:
  - name: User
    table: T
    discriminator: {attribute: tp, value: U}
    attributes:
      - {name: PK, type: S, required: true}
      - {name: SK, type: S, required: true}
      - {name: tp, type: S, required: true}
      - {name: email, type: S}
      - {name: age, type: N}
    keys:
      T: {PK: "U#{userId}", SK: "U#{userId}"}
      ByEmail: {email: "{email}"}
  - name: Order
    table: T
    attributes:
      - {name: PK, type: S, required: true}
      - {name: SK, type: S, required: true}
    keys:
      T: {PK: "U#{userId}", SK: "O#{orderId}"}
patterns:
  - number: 1
    name: A user
    returns: [User]
    operation: GetItem
    table: T
    key: {PK: "U#{userId}", SK: "U#{userId}"}
  - number: 2
    name: By email
    returns: [User]
    operation: Query
    table: T
    index: ByEmail
    key: {email: "{email}"}
    attributes: [PK]
`

func parse(t *testing.T, doc string) *design.Design {
	t.Helper()
	d, err := design.Parse([]byte(doc), "shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func TestItemsPlacesEachItemInOneEntity(t *testing.T) {
	d := parse(t, shopDesign)
	items := []map[string]types.AttributeValue{
		{"PK": s("U#1"), "SK": s("U#1"), "tp": s("U"), "email": s("a@x")},
		{"PK": s("U#2"), "SK": s("U#2"), "tp": s("U")}, // no email: out of the sparse index, as its key is optional
		{"PK": s("U#1"), "SK": s("O#9")},
	}
	var r recorder
	Items(&r, d, "T", items)
	r.want(t)
	if got := Entities(d, "T", items); got["User"] != 2 || got["Order"] != 1 {
		t.Errorf("entities %v", got)
	}
}

func TestItemsReportsWhatTheDesignDoesNotSay(t *testing.T) {
	d := parse(t, shopDesign)
	var r recorder
	Items(&r, d, "T", []map[string]types.AttributeValue{
		{"PK": s("U#1"), "SK": s("X#1")},                               // no entity's key
		{"PK": s("U#1"), "SK": s("U#2"), "tp": s("U")},                 // {userId} twice, two values
		{"PK": s("U#1"), "SK": s("U#1"), "tp": s("U"), "age": s("40")}, // a number stored as a string
		{"PK": s("U#1"), "SK": s("O#1"), "email": s("a@x")},            // an Order in ByEmail
		{"PK": s("U#1"), "SK": s("U#1")},                               // a user without its tp
	})
	r.want(t, "matches no entity", "matches no entity", "attribute age is S, the design says N",
		"Order is in index ByEmail", "matches no entity")
	Items(&r, d, "Nope", nil)
	if last := r.errs[len(r.errs)-1]; !strings.Contains(last, "no table Nope") {
		t.Errorf("unknown table: %q", last)
	}
}

func table(gsiProjection types.ProjectionType) *dynamodb.CreateTableInput {
	str := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	return &dynamodb.CreateTableInput{TableName: aws.String("T"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{str("PK"), str("SK"), str("email")},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByEmail"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("email"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: gsiProjection}}}}
}

func TestTablesComparesKeysIndexesAndProjections(t *testing.T) {
	d := parse(t, shopDesign)
	var r recorder
	Tables(&r, d, table(types.ProjectionTypeKeysOnly))
	r.want(t)
	Tables(&r, d, table(types.ProjectionTypeAll))
	r.want(t, "projection KEYS_ONLY, the example's ALL")
	r.errs = nil
	other := table(types.ProjectionTypeKeysOnly)
	other.TableName = aws.String("U")
	Tables(&r, d, other)
	r.want(t, "design table T: the example creates no such table", "creates table U, which the design does not declare")
}

func TestCheckKeepsOnlyExplainedWarnings(t *testing.T) {
	d := parse(t, shopDesign)
	var r recorder
	Check(&r, d)
	r.want(t)
	Check(&r, d, "filter-discard")
	r.want(t, "no longer warns filter-discard")
	r.errs = nil
	Check(&r, parse(t, strings.Replace(shopDesign, "index: ByEmail", "index: ByName", 1)))
	if len(r.errs) == 0 || !strings.Contains(r.errs[0], "shop.yaml:") {
		t.Errorf("a pattern on a missing index: %q", r.errs)
	}
}

func TestReadmeSectionIsTheDesignDoc(t *testing.T) {
	d := parse(t, shopDesign)
	path := filepath.Join(t.TempDir(), "README.md")
	stale := "# shop\n\nprose\n\n" + docMarker + "\nold tables\n" + docMarker + "\n\nmore prose\n"
	if err := os.WriteFile(path, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	var r recorder
	Readme(&r, d, path, false)
	r.want(t, "differs from `sortkey design doc shop.yaml`")
	r.errs = nil
	Readme(&r, d, path, true)
	Readme(&r, d, path, false)
	r.want(t)
	got, _ := os.ReadFile(path)
	want := "# shop\n\nprose\n\n" + docMarker + "\n" + string(design.Markdown(d)) + docMarker + "\n\nmore prose\n"
	if string(got) != want {
		t.Errorf("README after the update:\n%s", got)
	}
}

func TestReadmeSectionNeedsBothMarkers(t *testing.T) {
	for _, doc := range []string{"no markers\n", docMarker + "\nonly one\n", docMarker + "no newline after it"} {
		if _, _, _, err := ReadmeSection([]byte(doc)); err == nil {
			t.Errorf("%q: no error", doc)
		}
	}
}

func FuzzReadmeSection(f *testing.F) {
	f.Add([]byte("a\n" + docMarker + "\nb\n" + docMarker + "\nc"))
	f.Add([]byte(docMarker + "\n" + docMarker + "\n"))
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, readme []byte) {
		section, start, end, err := ReadmeSection(readme)
		if err != nil {
			return
		}
		if start > end || end > len(readme) || !bytes.Equal(section, readme[start:end]) {
			t.Fatalf("section [%d:%d] of %d bytes", start, end, len(readme))
		}
		if !bytes.HasPrefix(readme[end:], []byte(docMarker)) {
			t.Fatalf("the section does not end at a marker")
		}
	})
}
