package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// openDisk opens an engine on dir whose searches use graphs; Close is
// the test's to call.
func openDisk(t *testing.T, dir string) *Engine {
	t.Helper()
	e, err := Open(Options{Dir: dir, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !e.graphsUsable() {
		e.Close()
		// SORTKEY_TEST_STORE put this store on PostgreSQL, which several
		// nodes share: no graphs, so none saved
		// (TestVectorGraphsNotSavedWithoutGraphs covers that).
		t.Skip("vector graphs are not used on a shared store")
	}
	return e
}

// graphQueries are searches of both partitions, half with a filter.
func graphQueries(dims int) []string {
	r := rand.New(rand.NewPCG(3, 4))
	var out []string
	for i := range 20 {
		cond := `"SearchConditionExpression":"grp = :g","ExpressionAttributeValues":{":g":{"S":"a"}}`
		if i%2 == 1 {
			cond = `"SearchConditionExpression":"grp = :g AND tag = :t","ExpressionAttributeValues":{":g":{"S":"b"},":t":{"N":"1"}}`
		}
		out = append(out, fmt.Sprintf(`{"TableName":"vec","IndexName":"vix","TopK":10,"SearchVector":%s,%s}`,
			searchVector(gaussian(r, dims, 1)), cond))
	}
	return out
}

func searchVector(v []float64) string {
	return strings.TrimSuffix(strings.TrimPrefix(vectorJSON(v), `{"L":`), "}")
}

// graphAnswers is each query's answer from the graph.
func graphAnswers(t *testing.T, e *Engine, queries []string) [][]string {
	t.Helper()
	var out [][]string
	for _, q := range queries {
		g, _ := searchBoth(t, e, q)
		out = append(out, g)
	}
	return out
}

// savedGraphEngine builds a graph on a new store in dir, notes its
// answers to queries, and closes the engine cleanly.
func savedGraphEngine(t *testing.T, dir string, queries []string) [][]string {
	t.Helper()
	e := openDisk(t, dir)
	graphTable(t, e, 3000, 8)
	waitGraph(t, e)
	before := graphAnswers(t, e, queries)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return before
}

// loadedGraph waits for the graph Open started loading, without
// searching (a search would start a build); nil when there is none or
// the load failed.
func loadedGraph(t *testing.T, e *Engine) *annIndex {
	t.Helper()
	tbl, err := e.itemTable("vec")
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		v, ok := e.vectors.indexes.Load(vcKey{tbl.meta.ID, tbl.indexes[0].id})
		if !ok {
			return nil
		}
		if a := v.(*annIndex); a.isReady() {
			return a
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the saved vector graph never finished loading")
	return nil
}

// After a clean Close the next Open loads the graph, without a build:
// the first searches answer from it exactly as before the restart, and
// writes made while it loads and after are in it.
func TestVectorGraphSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	queries := graphQueries(8)
	before := savedGraphEngine(t, dir, queries)
	e := openDisk(t, dir)
	defer e.Close()
	if _, ok, _ := e.db.Get(storage.GraphsKey()); ok {
		t.Fatal("the saved graphs' marker outlived Open")
	}
	// While the graph loads, most likely, and in a partition no query
	// reads, so that the answers compared below stay the same.
	putVector(t, e, "new1", "c", 0, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	if loadedGraph(t, e) == nil {
		t.Fatal("the saved graph was not loaded")
	}
	if after := graphAnswers(t, e, queries); !slices.EqualFunc(after, before, slices.Equal) {
		t.Fatalf("answers after the restart differ:\n%v\nbefore:\n%v", after, before)
	}
	writeAfterRestart(t, e)
	graphHoldsEntries(t, e)
	checkWritesFound(t, e, queries)
}

// checkWritesFound checks the graph answers queries about as the entries
// do (it is approximate), and finds writeAfterRestart's changes: its
// three vectors first, its deleted items nowhere.
func checkWritesFound(t *testing.T, e *Engine, queries []string) {
	t.Helper()
	for _, q := range append(queries, nearQuery("b")) {
		g, x := searchBoth(t, e, q)
		if !overlapAtLeast(g, x, 8) || slices.ContainsFunc(g, deletedAfterRestart) {
			t.Fatalf("graph answers %v, the entries %v", g, x)
		}
	}
	g, _ := searchBoth(t, e, nearQuery("a"))
	if first := slices.Sorted(slices.Values(g[:3])); !slices.Equal(first, []string{"k10", "k11", "new2"}) {
		t.Fatalf("nearest to the vectors written after the restart: %v", g)
	}
}

func deletedAfterRestart(k string) bool { return k == "k12" || k == "k14" || k == "new1" }

// writeAfterRestart puts, replaces (moving one item to the other
// partition) and deletes.
func writeAfterRestart(t *testing.T, e *Engine) {
	putVector(t, e, "new2", "a", 1, []float64{-8, 7, -6, 5, -4, 3, -2, 1})
	putVector(t, e, "k10", "a", 2, []float64{-8, 7, -6, 5, -4, 3, -2, 1.1})
	putVector(t, e, "k11", "a", 2, []float64{-8, 7, -6, 5, -4, 3, -2.1, 1})
	for _, k := range []string{"k12", "k14", "new1"} {
		must[protocol.DeleteItemOutput](t)(call(t, e.DeleteItem, `{"TableName":"vec","Key":{"pk":{"S":"`+k+`"}}}`))
	}
}

// nearQuery searches partition grp next to writeAfterRestart's vectors.
func nearQuery(grp string) string {
	return `{"TableName":"vec","IndexName":"vix","TopK":5,"SearchVector":` + searchVector([]float64{-8, 7, -6, 5, -4, 3, -2, 1}) +
		`,"SearchConditionExpression":"grp = :g","ExpressionAttributeValues":{":g":{"S":"` + grp + `"}}}`
}

// graphHoldsEntries checks the graph holds exactly the index's entries.
func graphHoldsEntries(t *testing.T, e *Engine) {
	t.Helper()
	a := waitGraph(t, e)
	tbl, _ := e.itemTable("vec")
	lo, hi := tbl.indexRange(&tbl.indexes[0])
	var want []string
	if err := e.db.Scan(lo, hi, func(k, _ []byte) bool { want = append(want, string(k)); return true }); err != nil {
		t.Fatal(err)
	}
	a.mu.RLock()
	defer a.mu.RUnlock()
	if len(a.where) != len(want) {
		t.Fatalf("the graph holds %d entries, the index %d", len(a.where), len(want))
	}
	for _, k := range want {
		if _, ok := a.where[k]; !ok {
			t.Fatalf("entry %q is not in the graph", k)
		}
	}
}

// Open deletes the marker at once: a store that then stops without a
// clean Close does not trust the graph files, even put back, and builds
// from the entries.
func TestVectorGraphNotTrustedAfterCrash(t *testing.T) {
	dir := t.TempDir()
	queries := graphQueries(8)
	savedGraphEngine(t, dir, queries)
	saved := t.TempDir()
	copyDir(t, filepath.Join(dir, graphDirName), saved)
	e := openDisk(t, dir)
	writeAfterRestart(t, e)
	crash(e)
	copyDir(t, saved, filepath.Join(dir, graphDirName))

	e = openDisk(t, dir)
	defer e.Close()
	if loadedGraph(t, e) != nil {
		t.Fatal("graph files were loaded without the marker of a clean close")
	}
	if names := graphFiles(t, dir); len(names) != 0 {
		t.Fatalf("untrusted graph files left behind: %v", names)
	}
	graphHoldsEntries(t, e)
	checkWritesFound(t, e, queries)
}

// crash stops e as a process that dies would: its store closed with
// every write durable, but nothing of Close's own.
func crash(e *Engine) {
	close(e.closing)
	e.bg.Wait()
	e.sweeping.Wait()
	e.db.Close()
}

// overlapAtLeast reports whether got and want share n keys (a rebuilt
// graph is approximate, unlike a loaded one, which answers as before).
func overlapAtLeast(got, want []string, n int) bool {
	shared := 0
	for _, k := range got {
		if slices.Contains(want, k) {
			shared++
		}
	}
	return shared >= min(n, len(want))
}

// A graph file whose bytes changed after the save is refused by its
// checksum; the first search builds the graph from the entries.
func TestVectorGraphFileCorrupted(t *testing.T) {
	dir := t.TempDir()
	savedGraphEngine(t, dir, nil)
	names := graphFiles(t, dir)
	if len(names) != 1 {
		t.Fatalf("graph files after a clean close: %v", names)
	}
	path := filepath.Join(dir, graphDirName, names[0])
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// An entry's key, renamed: the file still decodes.
	at := bytes.Index(b, []byte("k1500"))
	if at < 0 {
		t.Fatal("no entry key k1500 in the graph file")
	}
	b[at] = 'z'
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	e := openDisk(t, dir)
	defer e.Close()
	if loadedGraph(t, e) != nil {
		t.Fatal("a changed graph file was loaded")
	}
	graphHoldsEntries(t, e)
	if g, x := searchBoth(t, e, nearQuery("b")); !overlapAtLeast(g, x, 4) {
		t.Fatalf("graph answers %v, the entries %v", g, x)
	}
}

// Where graphs are not used (index lag; a shared store when
// SORTKEY_TEST_STORE is set) Close saves none, and Open removes the
// files an earlier clean close saved, whose marker it consumes.
func TestVectorGraphsNotSavedWithoutGraphs(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(Options{Dir: dir, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	if e.graphsUsable() {
		graphTable(t, e, 1200, 4)
		waitGraph(t, e)
	}
	e.Close()
	e, err = Open(Options{Dir: dir, TTLInterval: -1, IndexLag: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := e.db.Get(storage.GraphsKey()); ok {
		t.Fatal("the marker outlived an Open with index lag")
	}
	if names := graphFiles(t, dir); len(names) != 0 {
		t.Fatalf("graph files left by an Open that cannot use them: %v", names)
	}
	e.Close()
	if names := graphFiles(t, dir); len(names) != 0 {
		t.Fatalf("graph files saved by an engine without graphs: %v", names)
	}
}

func graphFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, graphDirName))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, de := range entries {
		names = append(names, de.Name())
	}
	return names
}

func TestGraphsMarkerRoundTrip(t *testing.T) {
	files := []savedGraph{{graphFileName(1, 2), 100, 7}, {graphFileName(1<<60, 65535), 1 << 40, 1 << 31}}
	got, err := decodeGraphsMarker(encodeGraphsMarker(files))
	if err != nil || !slices.Equal(got, files) {
		t.Fatalf("%v, %v; want %v", got, err, files)
	}
	forged := encodeGraphsMarker([]savedGraph{{"../../etc/passwd", 1, 1}})
	if _, err := decodeGraphsMarker(forged); err == nil {
		t.Fatal("a marker naming a path outside the directory was accepted")
	}
}

func FuzzDecodeGraphsMarker(f *testing.F) {
	f.Add(encodeGraphsMarker([]savedGraph{{graphFileName(3, 4), 10, 20}}))
	f.Add([]byte{1, 200})
	f.Fuzz(func(t *testing.T, b []byte) {
		files, err := decodeGraphsMarker(b)
		if err != nil {
			return
		}
		if got, err := decodeGraphsMarker(encodeGraphsMarker(files)); err != nil || !slices.Equal(got, files) {
			t.Fatalf("re-encoded marker reads %v, %v", got, err)
		}
	})
}
