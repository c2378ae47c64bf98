package design

import (
	"bytes"
	"encoding/json"

	"go.yaml.in/yaml/v3"
)

// Marshal writes d as a design file, YAML or (asJSON) JSON, in the form
// Parse reads back: Parse(Marshal(d)) is d but for positions.
func Marshal(d *Design, asJSON bool) ([]byte, error) {
	if asJSON {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // templates hold "<" and "&" as written
		enc.SetIndent("", "  ")
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	var n yaml.Node
	if err := n.Encode(d); err != nil {
		return nil, err
	}
	flowLeaves(&n)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MarshalJSON writes an equality back as its template alone, as
// MarshalYAML does.
func (c Condition) MarshalJSON() ([]byte, error) {
	if c.Op == "=" && c.Value2 == "" {
		return json.Marshal(string(c.Value))
	}
	type plain Condition
	return json.Marshal(plain(c))
}

// flowLeaves writes each mapping of scalars on one line, as the seeds'
// design files do ({name: pk, type: S}), so a marshalled design reads
// like a written one.
func flowLeaves(n *yaml.Node) {
	for _, c := range n.Content {
		flowLeaves(c)
	}
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return
		}
	}
	n.Style = yaml.FlowStyle
}
