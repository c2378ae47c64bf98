package designtest

import (
	"bytes"
	"fmt"
	"os"

	"github.com/sortkeydb/sortkey/internal/design"
)

// docMarker opens and closes the part of an example's README that
// `sortkey design doc` writes.
const docMarker = "<!-- design doc -->"

// ReadmeSection is the part of readme between its two design doc
// markers, and where it starts and ends in readme.
func ReadmeSection(readme []byte) (section []byte, start, end int, err error) {
	marker := []byte(docMarker + "\n")
	start = bytes.Index(readme, marker)
	if start < 0 {
		return nil, 0, 0, fmt.Errorf("no %q line", docMarker)
	}
	start += len(marker)
	n := bytes.Index(readme[start:], marker)
	if n < 0 {
		return nil, 0, 0, fmt.Errorf("no closing %q line", docMarker)
	}
	end = start + n
	return readme[start:end], start, end, nil
}

// Readme reports, through t, a README whose design doc section is not
// exactly what `sortkey design doc` writes for d; with update, it writes
// that section into the file instead.
func Readme(t TB, d *design.Design, path string, update bool) {
	t.Helper()
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	got, start, end, err := ReadmeSection(readme)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	want := design.Markdown(d)
	switch {
	case bytes.Equal(got, want):
	case update:
		out := append(append(append([]byte{}, readme[:start]...), want...), readme[end:]...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Errorf("%v", err)
		}
	default:
		t.Errorf("%s: the design doc section differs from `sortkey design doc %s`; run the tests with -update-readme", path, d.File)
	}
}
