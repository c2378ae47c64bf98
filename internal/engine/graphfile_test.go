package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// A graph file is refused for an index whose definition differs from
// the one it was saved from.
func TestGraphFileRefusesOtherSpec(t *testing.T) {
	b := sampleGraphFile(t)
	other := *sampleSpec
	other.filters = []string{"tag", "colour"}
	if _, err := readGraphs(bufio.NewReader(bytes.NewReader(b)), &other, int64(len(b))); err == nil || !strings.Contains(err.Error(), "another definition") {
		t.Fatalf("%v, want a refusal of another definition", err)
	}
	if _, err := readGraphs(bufio.NewReader(bytes.NewReader(b)), sampleSpec, int64(len(b))); err != nil {
		t.Fatal(err)
	}
}

var sampleSpec = &vectorSpec{attr: "v", dims: 3, distance: 1, hash: "grp", filters: []string{"tag"}}

// sampleGraphFile is a small valid graph file of sampleSpec: two
// partitions, a replaced and a deleted entry.
func sampleGraphFile(t testing.TB) []byte {
	a := &annIndex{spec: sampleSpec, parts: map[string]*annPart{}, where: map[string]annRef{}, ready: true}
	for i := range 12 {
		it := map[string]string{"grp": []string{"a", "b"}[i%2], "tag": "1"}
		a.change(sampleOp(fmt.Sprintf("key%d", i%10), it, float32(i)))
	}
	a.change(annOp{key: []byte("key3"), del: true})
	var buf bytes.Buffer
	if err := a.writeTo(bufio.NewWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sampleOp(key string, it map[string]string, f float32) annOp {
	op := annOp{key: []byte(key), vec: []float32{1, f, 2}, part: it["grp"]}
	op.attrs = attr.Item{"grp": attr.Str(it["grp"]), "tag": attr.Num(it["tag"])}
	return op
}

func FuzzReadGraphs(f *testing.F) {
	b := sampleGraphFile(f)
	f.Add(b)
	f.Add(b[:len(b)-3])
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := readGraphs(bufio.NewReader(bytes.NewReader(b)), sampleSpec, int64(len(b)))
		if err != nil {
			return
		}
		a := &annIndex{spec: sampleSpec, ready: true}
		a.install(st)
		a.change(sampleOp("key1", map[string]string{"grp": "a", "tag": "2"}, 9))
		a.change(annOp{key: []byte("key2"), del: true})
		for _, p := range a.parts {
			p.graph.Search([]float32{1, 2, 3}, 3, nil)
		}
	})
}
