package main

// `sortkey upgrade`: converts a store an earlier sortkey wrote to this
// one's layout, once, with every server on it stopped. serve refuses such
// a store and names this command (engine.ErrUpgrade).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sortkeydb/sortkey/internal/engine"
)

const msgUpgradeNoDir = "no data directory at %s: give the --data-dir that serve used"

func upgradeCmd(args []string, stdout, stderr io.Writer) int {
	var dir, store string
	fset := flag.NewFlagSet("upgrade", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.StringVar(&dir, "data-dir", defaultDataDir, "the data directory to convert, as given to serve --data-dir")
	fset.StringVar(&store, "store", "", "convert this PostgreSQL store instead, as given to serve --store (stop every node on it first)")
	if err := parseLayered(fset, args); err != nil {
		return exitUsage(err, fset, stdout)
	}
	if err := upgradeStore(dir, store, stdout); err != nil {
		fmt.Fprintln(stderr, "sortkey upgrade:", err)
		return 1
	}
	return 0
}

// upgradeStore converts the store and says what it did.
func upgradeStore(dir, store string, stdout io.Writer) error {
	if store == "" {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf(msgUpgradeNoDir, dir)
		}
	}
	progress := func(what string, keys int64) { fmt.Fprintf(stdout, "converted %s: %d keys\n", what, keys) }
	rep, err := engine.Upgrade(engine.Options{Dir: dir, Store: store}, progress)
	if err != nil {
		return err
	}
	if rep == (engine.UpgradeReport{}) {
		fmt.Fprintln(stdout, "nothing to convert: the store is already in this sortkey's layout")
		return nil
	}
	fmt.Fprintf(stdout, "upgraded: %d tables, %d backups, %d keys; earlier sortkeys can no longer open this store\n",
		rep.Tables, rep.Backups, rep.Keys)
	return nil
}
