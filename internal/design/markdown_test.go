package design

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestDocGolden(t *testing.T) {
	d, err := Load("testdata/market-seed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := Markdown(d)
	if *update {
		if err := os.WriteFile("testdata/market-seed.md", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/market-seed.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Markdown differs from testdata/market-seed.md (go test -run TestDocGolden -update rewrites it):\n%s", got)
	}
	if again := Markdown(d); string(again) != string(got) {
		t.Error("Markdown is not deterministic")
	}
}

// What a reader checks in the generated document, independently of the
// golden file.
func TestDocContents(t *testing.T) {
	d, err := Load("testdata/market-seed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(Markdown(d))
	for _, want := range []string{
		"| IdLookupIndex | GSI of Market | id (S) | tp (S) | ALL | 4a Find an order by its number |",
		"| Order | `tp = O` | `U#{userId}#O` | `O#{orderId}` | `O#{orderId}` | `U#{userId}#O` | `{orderNumber}` | `O` |",
		"| OrderItem |  | `U#{userId}#O` | `O#{orderId}#{line}` | `O#{orderId}#{line}` | `U#{userId}#O` | — | — |",
		"`pk = \"U#{userId}#O\" AND begins_with(sk, \"O#{orderId}\")`",
		"| 1 | Get user profile | User | GetItem | Market |",
		"| 0.5 (1 item) |",
		"| 2.5 (20 items) |", // 20 KB of rewards: 5 read units of 0.5 RCU
		"```mermaid",
		`c1 --> c1e1["OrderItem<br/>sk = O#35;{orderId}#35;{line}"]`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the document lacks %q", want)
		}
	}
}
