package design

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The five reference designs, as the examples hold them
// (examples/<name>/design.yaml), are what docs/design.schema.json lets an
// editor write: an editor completing against the schema accepts each.
func TestSchemaAcceptsTheSeeds(t *testing.T) {
	schema := loadSchema(t)
	files, err := filepath.Glob("../../examples/*/design.yaml")
	if err != nil || len(files) != 5 {
		t.Fatalf("the seeds' design files: %v, %v", files, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var root yaml.Node
		if err := yaml.Unmarshal(data, &root); err != nil {
			t.Fatal(err)
		}
		if err := validate(schema, schema, root.Content[0]); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}
