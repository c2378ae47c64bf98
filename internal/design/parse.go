package design

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxFileBytes bounds a design file: a design is text a person writes.
const maxFileBytes = 4 << 20

// ErrTooLarge refuses a design file over maxFileBytes.
var ErrTooLarge = fmt.Errorf("design file is larger than %d bytes", maxFileBytes)

// Load reads and parses the design file at path.
func Load(path string) (*Design, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse parses a design file, YAML or JSON (JSON is read as the YAML it
// also is), named file in messages. Unknown members are refused with
// their line and column and the valid key nearest to them, so a misspelt
// one is not silently ignored. Parse checks the form only; Check judges
// the design.
func Parse(data []byte, file string) (*Design, error) {
	if len(data) > maxFileBytes {
		return nil, ErrTooLarge
	}
	// A tab is not YAML indentation, but is JSON whitespace; as one
	// space it keeps every column where it was.
	data = bytes.ReplaceAll(data, []byte("\t"), []byte(" "))
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, positioned(file, err)
	}
	if len(root.Content) == 0 {
		return nil, fmt.Errorf("%s: the file is empty", file)
	}
	if err := unknownKey(root.Content[0], reflect.TypeFor[Design](), file); err != nil {
		return nil, err
	}
	d := &Design{File: file}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(d); err != nil {
		return nil, positioned(file, err)
	}
	d.File = file
	placeDesign(d, root.Content[0])
	return d, nil
}

// positioned prefixes yaml's "yaml: line N: ..." errors with the file.
func positioned(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msg = strings.Join(te.Errors, "; ")
	}
	return fmt.Errorf("%s: %s", file, msg)
}

// UnmarshalYAML takes one key attribute as an object or several as a list.
func (k *KeyAttrs) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		var one KeyAttr
		if err := n.Decode(&one); err != nil {
			return err
		}
		*k = KeyAttrs{one}
		return nil
	}
	var many []KeyAttr
	if err := n.Decode(&many); err != nil {
		return err
	}
	*k = many
	return nil
}

// UnmarshalYAML takes a key condition as a template (an equality) or as
// {op, value, value2}.
func (c *Condition) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		c.Op, c.Value = "=", Template(n.Value)
		return nil
	}
	type plain Condition
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*c = Condition(p)
	return nil
}

// MarshalYAML writes an equality back as its template alone.
func (c Condition) MarshalYAML() (any, error) {
	if c.Op == "=" && c.Value2 == "" {
		return string(c.Value), nil
	}
	type plain Condition
	return plain(c), nil
}

// The rest of this file records where each element was written, by
// walking the parsed nodes beside the decoded design.

func at(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

// member is the value node of key in mapping n, or nil.
func member(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// items is the elements of sequence n (nil if n is not one).
func items(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// entries is mapping n's keys with their value nodes' positions.
func entries(n *yaml.Node) map[string]Pos {
	out := map[string]Pos{}
	if n == nil || n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = at(n.Content[i])
	}
	return out
}

func placeDesign(d *Design, n *yaml.Node) {
	d.Pos = at(n)
	for i, t := range items(member(n, "tables")) {
		if i < len(d.Tables) {
			placeTable(&d.Tables[i], t)
		}
	}
	for i, e := range items(member(n, "entities")) {
		if i < len(d.Entities) {
			placeEntity(&d.Entities[i], e)
		}
	}
	for i, p := range items(member(n, "patterns")) {
		if i < len(d.Patterns) {
			d.Patterns[i].Pos = at(p)
			d.Patterns[i].KeyPos = entries(member(p, "key"))
		}
	}
	for i, w := range items(member(n, "writes")) {
		if i < len(d.Writes) {
			d.Writes[i].Pos = at(w)
		}
	}
}

func placeTable(t *Table, n *yaml.Node) {
	t.Pos = at(n)
	if k := member(n, "partitionKey"); k != nil {
		t.PartitionKey.Pos = at(k)
	}
	if k := member(n, "sortKey"); k != nil && t.SortKey != nil {
		t.SortKey.Pos = at(k)
	}
	placeIndexes(t.GSIs, member(n, "globalSecondaryIndexes"))
	placeIndexes(t.LSIs, member(n, "localSecondaryIndexes"))
	placeVectorIndexes(t.VectorIndexes, member(n, "vectorIndexes"))
}

func placeIndexes(ix []Index, n *yaml.Node) {
	for i, x := range items(n) {
		if i >= len(ix) {
			return
		}
		ix[i].Pos = at(x)
		if p := member(x, "projection"); p != nil {
			ix[i].Projection.Pos = at(p)
		}
		placeKeyAttrs(ix[i].PartitionKey, member(x, "partitionKey"))
		placeKeyAttrs(ix[i].SortKey, member(x, "sortKey"))
	}
}

func placeKeyAttrs(k KeyAttrs, n *yaml.Node) {
	if n != nil && n.Kind == yaml.MappingNode && len(k) == 1 {
		k[0].Pos = at(n)
		return
	}
	for i, a := range items(n) {
		if i < len(k) {
			k[i].Pos = at(a)
		}
	}
}

func placeEntity(e *Entity, n *yaml.Node) {
	e.Pos = at(n)
	e.KeysPos = entries(member(n, "keys"))
	for i, a := range items(member(n, "attributes")) {
		if i < len(e.Attributes) {
			e.Attributes[i].Pos = at(a)
		}
	}
	if d := member(n, "discriminator"); d != nil && e.Discriminator != nil {
		e.Discriminator.Pos = at(d)
	}
}
