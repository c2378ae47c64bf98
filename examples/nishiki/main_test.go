package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestRunPrintsEveryPattern runs main's work twice on one server, as
// running the command twice against one `sortkey serve` does: the second
// run must succeed and print the same.
func TestRunPrintsEveryPattern(t *testing.T) {
	env, err := runner.Start(ctx, sortkeytest.NewWithOptions(t, coverage.Options(nil)).URL)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(env.Client, DevTable)
	s.Now = func() time.Time { return testNow }
	var first, second bytes.Buffer
	if err := run(ctx, &first, s, env.Recorder); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, &second, s, env.Recorder); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("the second run printed\n%s\nthe first\n%s", second.String(), first.String())
	}
	for _, d := range demos(s, InvitationLink{}) {
		if !strings.Contains(first.String(), "## "+d.name+"\n") {
			t.Errorf("no %q in the printout", d.name)
		}
	}
	for _, line := range []string{
		"Query nishiki-table-dev-db / EMailAndUserIdRelationship  [EMailAddress = :v]",
		"Query nishiki-table-dev-db  [PK = :pk AND begins_with(SK, :prefix)]",
		"Query nishiki-table-dev-db / GroupAndContainerRelationship  [ContainerId = :v]",
		"Query nishiki-table-dev-db / UserAndGroupRelationship  [GroupId = :v]",
		"Query nishiki-table-dev-db / InvitationHash  [InvitationLinkHash = :v]",
		"Fridge         f00d0001-0000-4000-8000-00000000a001  Milk            0.5",
	} {
		if !strings.Contains(first.String(), line) {
			t.Errorf("no %q in the printout:\n%s", line, first.String())
		}
	}
}

// TestRunOnProd: --env prod works on its own table. Its server is not
// held to design.yaml, which names the dev table the example creates by
// default: the prod table's requests would all be undeclared there.
func TestRunOnProd(t *testing.T) {
	env, err := runner.Start(ctx, sortkeytest.New(t).URL)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(ctx, &out, NewStore(env.Client, ProdTable), env.Recorder); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "table nishiki-table-prod-db, sample loaded\n") {
		t.Fatalf("printout begins %q", out.String()[:60])
	}
}
