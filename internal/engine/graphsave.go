package engine

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"

	"github.com/sortkeydb/sortkey/internal/storage"
)

// A clean Close saves every built vector graph to a file under
// <Dir>/vector-graphs, so that the next Open loads it instead of
// rebuilding it from the entries (minutes per 100,000 vectors). A file is
// trusted only while the store says nothing was written after it:
//
//   - Close, once background work has stopped and holding every item
//     lock stripe (so no write is between its commit and its graph
//     change) and e.mu, writes each ready graph's file (temp name,
//     fsync, rename, directory fsync), then one key, storage.GraphsKey,
//     listing each file's name, size and CRC-32C, committed with sync;
//     then closes the store.
//   - Open reads that key and deletes it (with sync) before anything is
//     written, so that after a crash no file is ever trusted again. Each
//     listed file whose index still exists is loaded in the background,
//     writes queueing meanwhile as during a build, and checked (size,
//     CRC, definition) before use; anything else under the directory is
//     removed. A file that fails is logged and dropped, and the first
//     search builds the graph from the entries as before.
//
// Only a store on disk that this process alone writes saves graphs: in
// memory nothing outlives the process, and on PostgreSQL or with index
// lag graphs are not used.
const graphDirName = "vector-graphs"

// savedGraph is one file as the marker key lists it.
type savedGraph struct {
	name string
	size uint64
	crc  uint32
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func graphFileName(table uint64, index uint16) string {
	return fmt.Sprintf("table%d-index%d.graph", table, index)
}

// parseGraphFileName is the index a file name is of; ok is false for
// any name graphFileName does not make, so a forged marker cannot name
// a path outside the directory.
func parseGraphFileName(name string) (table uint64, index uint16, ok bool) {
	if _, err := fmt.Sscanf(name, "table%d-index%d.graph", &table, &index); err != nil {
		return 0, 0, false
	}
	return table, index, graphFileName(table, index) == name
}

// savesGraphs reports whether Close saves the graphs.
func (e *Engine) savesGraphs() bool { return e.graphDir != "" && e.graphsUsable() }

// saveGraphs writes the graph files and the marker; on any failure no
// marker is written, and the next Open builds graphs as before. The
// caller holds every item lock stripe and e.mu, and keeps them until the
// store is closed, so no write can land after the marker.
func (e *Engine) saveGraphs() {
	ready := e.readyGraphs()
	if len(ready) == 0 {
		return
	}
	files, err := writeGraphFiles(e.graphDir, ready)
	if err == nil {
		err = e.writeGraphsMarker(files)
	}
	if err != nil {
		slog.Error("vector graphs not saved; the next start rebuilds them", "err", err)
	}
}

// readyGraphs is every built graph, by its file's name.
func (e *Engine) readyGraphs() map[string]*annIndex {
	ready := map[string]*annIndex{}
	e.vectors.indexes.Range(func(k, v any) bool {
		if a := v.(*annIndex); a.isReady() {
			ready[graphFileName(k.(vcKey).table, k.(vcKey).index)] = a
		}
		return true
	})
	return ready
}

func writeGraphFiles(dir string, ready map[string]*annIndex) ([]savedGraph, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []savedGraph
	for name, a := range ready {
		f, err := writeGraphFile(dir, name, a)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, syncDir(dir)
}

func (a *annIndex) isReady() bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.ready
}

// writeGraphFile writes a to dir/name through a temporary file, synced
// before it takes the name.
func writeGraphFile(dir, name string, a *annIndex) (savedGraph, error) {
	tmp := filepath.Join(dir, name+".tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return savedGraph{}, err
	}
	h := crc32.New(castagnoli)
	cw := &countingWriter{w: io.MultiWriter(f, h)}
	err = errors.Join(a.writeTo(bufio.NewWriterSize(cw, 1<<20)), f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return savedGraph{}, err
	}
	return savedGraph{name: name, size: uint64(cw.n), crc: h.Sum32()}, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

func (e *Engine) writeGraphsMarker(files []savedGraph) error {
	b := e.db.NewBatch()
	b.Set(storage.GraphsKey(), encodeGraphsMarker(files))
	return b.Commit()
}

// The marker: version u8 | per file: name length u8 + name | size u64 |
// CRC-32C u32, little-endian.
const graphsMarkerVersion = 1

func encodeGraphsMarker(files []savedGraph) []byte {
	b := []byte{graphsMarkerVersion}
	for _, f := range files {
		b = append(append(b, byte(len(f.name))), f.name...)
		b = binary.LittleEndian.AppendUint64(b, f.size)
		b = binary.LittleEndian.AppendUint32(b, f.crc)
	}
	return b
}

var errGraphsMarker = errors.New("engine: the saved vector graphs' list is corrupt")

func decodeGraphsMarker(b []byte) ([]savedGraph, error) {
	if len(b) == 0 || b[0] != graphsMarkerVersion {
		return nil, errGraphsMarker
	}
	var files []savedGraph
	for b = b[1:]; len(b) > 0; {
		n := int(b[0])
		if len(b) < 1+n+12 {
			return nil, errGraphsMarker
		}
		f := savedGraph{name: string(b[1 : 1+n]), size: binary.LittleEndian.Uint64(b[1+n:]), crc: binary.LittleEndian.Uint32(b[9+n:])}
		if _, _, ok := parseGraphFileName(f.name); !ok {
			return nil, errGraphsMarker
		}
		files, b = append(files, f), b[1+n+12:]
	}
	return files, nil
}

// loadGraphs takes the marker a clean Close left, deleting it before
// anything is written, and starts loading the graphs it vouches for.
// It runs at Open, after the catalog loads; an error means the marker
// could not be deleted, and Open fails rather than leave it to vouch
// for files later writes make stale.
func (e *Engine) loadGraphs() error {
	if e.graphDir == "" {
		return nil
	}
	files, err := e.takeGraphsMarker()
	if err != nil {
		return err
	}
	loading := map[string]bool{}
	if e.graphsUsable() {
		loading = e.startGraphLoads(files)
	}
	e.removeGraphFiles(loading)
	return nil
}

func (e *Engine) takeGraphsMarker() ([]savedGraph, error) {
	v, ok, err := e.db.Get(storage.GraphsKey())
	if err != nil || !ok {
		return nil, err
	}
	b := e.db.NewBatch()
	b.Delete(storage.GraphsKey())
	if err := b.Commit(); err != nil {
		return nil, err
	}
	files, err := decodeGraphsMarker(v)
	if err != nil {
		slog.Error("saved vector graphs not used; searches build them", "err", err)
	}
	return files, nil
}

// startGraphLoads registers, for each file whose vector index still
// exists, a graph not yet ready, which writes queue changes to, and loads
// it in the background. It returns the names of the files being loaded.
func (e *Engine) startGraphLoads(files []savedGraph) map[string]bool {
	loading := map[string]bool{}
	for _, f := range files {
		tableID, indexID, _ := parseGraphFileName(f.name) // the marker's decoder checked it
		t, ix := e.vectorIndexByID(tableID, indexID)
		if ix == nil {
			continue
		}
		a := &annIndex{spec: ix.vec, parts: map[string]*annPart{}, where: map[string]annRef{}}
		e.vectors.indexes.Store(vcKey{tableID, indexID}, a)
		loading[f.name] = true
		e.bg.Add(1)
		go e.loadGraph(t, ix, a, f)
	}
	return loading
}

func (e *Engine) vectorIndexByID(tableID uint64, indexID uint16) (*table, *indexSchema) {
	for _, t := range e.tables {
		if ix := t.indexByID(indexID); t.meta.ID == tableID && ix != nil && ix.vec != nil {
			return t, ix
		}
	}
	return nil, nil
}

// removeGraphFiles removes every file under the graph directory but
// keep's: no marker vouches for them any more.
func (e *Engine) removeGraphFiles(keep map[string]bool) {
	entries, _ := os.ReadDir(e.graphDir) // none yet: nothing to remove
	for _, de := range entries {
		if !keep[de.Name()] {
			if err := os.Remove(filepath.Join(e.graphDir, de.Name())); err != nil {
				slog.Warn("stale vector graph file not removed", "err", err)
			}
		}
	}
}

// loadGraph reads f into a, replays the changes queued meanwhile and
// marks a ready; on failure it drops a, so the first search builds it.
// The file is removed either way: it will not be trusted again.
func (e *Engine) loadGraph(t *table, ix *indexSchema, a *annIndex, f savedGraph) {
	defer e.bg.Done()
	path := filepath.Join(e.graphDir, f.name)
	st, err := readGraphFile(path, f, ix.vec)
	os.Remove(path)
	if err != nil {
		slog.Error("saved vector graph not used; the first search builds it", "index", ix.name, "err", err)
		e.dropGraphs(t.meta.ID, ix.id)
		return
	}
	a.install(st)
}

var errGraphChecksum = badGraphFile("its size or checksum differs from the one saved")

// readGraphFile reads the file f names, checking its size and CRC-32C
// against f's as it reads.
func readGraphFile(path string, f savedGraph, spec *vectorSpec) (*graphState, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	h := crc32.New(castagnoli)
	cr := &countingReader{r: io.TeeReader(file, h)}
	st, err := readGraphs(bufio.NewReaderSize(cr, 1<<20), spec, int64(min(f.size, math.MaxInt64)))
	if err != nil || !sameSum(cr, h, f) {
		return nil, cmp.Or(err, errGraphChecksum)
	}
	return st, nil
}

func sameSum(cr *countingReader, h hash.Hash32, f savedGraph) bool {
	return uint64(cr.n) == f.size && h.Sum32() == f.crc
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// install makes st a's graphs, applies the changes writers queued while
// it was read, in their order, and marks a ready.
func (a *annIndex) install(st *graphState) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.parts, a.where, a.nextID = st.parts, st.where, st.nextID
	for _, op := range a.pending {
		a.change(op)
	}
	a.pending, a.ready = nil, true
}
