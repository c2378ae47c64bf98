package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestMainTwiceOnOneServer runs the program as `--endpoint` does, twice:
// the second run finds the table and the data, and prints the same; on a
// server without access control, and on one given the example's auth
// file, as `sortkey serve --auth` is.
func TestMainTwiceOnOneServer(t *testing.T) {
	doc, err := AuthFile(TenantPolicy, sampleUsers...)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("access control off", func(t *testing.T) { mainTwice(t, sortkeytest.NewWithOptions(t, coverage.Options(nil))) })
	t.Run("access control on", func(t *testing.T) {
		mainTwice(t, sortkeytest.NewWithOptions(t, coverage.Options(&sortkey.Options{Auth: doc})))
	})
}

func mainTwice(t *testing.T, srv *sortkeytest.Server) {
	var first, second bytes.Buffer
	if err := run(ctx, srv.URL, &first); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, srv.URL, &second); err != nil {
		t.Fatal(err)
	}
	head1, body1, _ := strings.Cut(first.String(), "\n")
	head2, body2, _ := strings.Cut(second.String(), "\n")
	if head1 != "sample data: loaded" || head2 != "sample data: already loaded by an earlier run" {
		t.Fatalf("first line of each run: %q, %q", head1, head2)
	}
	if body1 != body2 {
		t.Fatalf("the runs differ:\n%s\n---\n%s", body1, body2)
	}
	for _, want := range []string{
		"## 1. Get user profile\n   GetItem Market\n",
		"## 2. Get the list of last N orders for user (N = 2)\n   Query Market  [pk = :pk]\n",
		"## 3. Display bonuses for user\n   Query Market  [pk = :pk]\n",
		"## 4. Get a single order with all its items by id\n   Query Market / IdLookupIndex  [id = :id AND tp = :tp]\n   Query Market  [pk = :pk AND begins_with(sk, :sk)]\n",
		"Ceramic dripper", "383      Order", "(4 rows)\n\n## 4. (the same order number, asked for by another user)",
	} {
		if !strings.Contains(body1, want) {
			t.Errorf("output lacks %q:\n%s", want, body1)
		}
	}
}
