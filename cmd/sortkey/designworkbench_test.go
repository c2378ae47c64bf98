package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/design"
)

func TestDesignWorkbenchRoundTripThroughFiles(t *testing.T) {
	dir := t.TempDir()
	model, yamlOut, jsonOut := filepath.Join(dir, "model.json"), filepath.Join(dir, "back.yaml"), filepath.Join(dir, "back.json")
	code, _, errs := runDesign("export-workbench", "../../internal/design/testdata/market.yaml", "-o", model)
	if code != 0 || !strings.Contains(errs, "warning: table Market: Time to Live (ttl)") {
		t.Fatalf("export: exit %d, stderr %q", code, errs)
	}
	for _, out := range []string{yamlOut, jsonOut} {
		if code, _, errs := runDesign("import-workbench", "-o", out, model); code != 0 {
			t.Fatalf("import: exit %d, stderr %q", code, errs)
		}
	}
	fromYAML, err := design.Load(yamlOut)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := design.Load(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromYAML.Tables[0].GSIs) != 2 || len(fromYAML.Entities) != 3 || fromYAML.Entities[1].Keys["Market"]["pk"] != "U#{userId}#O" {
		t.Errorf("imported %+v", fromYAML)
	}
	a, _ := design.Marshal(fromYAML, false)
	b, _ := design.Marshal(fromJSON, false)
	if string(a) != string(b) {
		t.Errorf("the YAML and JSON imports differ:\n%s\n%s", a, b)
	}
}

func TestDesignImportWorkbenchToStdout(t *testing.T) {
	code, out, errs := runDesign("import-workbench", "../../internal/design/workbench/testdata/library.json")
	if code != 0 || !strings.Contains(out, "name: Library") || !strings.Contains(errs, "warning: entity Loan: no sample items") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

func TestDesignWorkbenchBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"DataModel": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{{"import-workbench", bad, "-o", out}, {"import-workbench"}, {"export-workbench", bad, "-o", out},
		{"export-workbench", "missing.yaml"}, {"import-workbench", "a", "b"}} {
		if code, _, errs := runDesign(args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("bad input wrote %s", out)
	}
}
