package bench

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// DirSize is the total size of the files under dir: what a server's data
// directory holds on disk, to set against the raw bytes of its items.
// A missing dir is an error (a mistyped flag); a file that vanishes while
// it is listed is one compaction removed, and counts as gone.
func DirSize(dir string) (int64, error) {
	if _, err := os.Stat(dir); err != nil {
		return 0, err
	}
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // compacted away since the listing
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	return total, err
}
