package main

import (
	"os"
	"testing"

	"github.com/sortkeydb/sortkey/examples/internal/designtest"
)

// coverage holds every request the application makes in these tests
// against design.yaml: the run fails if a pattern is never exercised or a
// request fits no pattern.
var coverage = designtest.MustCoverage(designFile)

func TestMain(m *testing.M) { os.Exit(coverage.Run(m)) }
