package dataio_test

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/dataio"
)

// The per-item costs of export's encoder and import's decoder, for an
// item of every type (about 400 bytes of JSON).
func BenchmarkExportLine(b *testing.B) {
	item := everyType(1)
	var line []byte
	b.ReportAllocs()
	for b.Loop() {
		line = dataio.AppendItemLine(line[:0], item)
	}
	b.SetBytes(int64(len(line)))
}

func BenchmarkImportLine(b *testing.B) {
	line := dataio.AppendItemLine(nil, everyType(1))
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dataio.DecodeLine(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExportIonLine(b *testing.B) {
	item := everyType(1)
	var line []byte
	b.ReportAllocs()
	for b.Loop() {
		line = dataio.AppendIonLine(line[:0], item)
	}
	b.SetBytes(int64(len(line)))
}

func BenchmarkImportIonLine(b *testing.B) {
	line := dataio.AppendIonLine(nil, everyType(1))
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dataio.DecodeIonLine(line); err != nil {
			b.Fatal(err)
		}
	}
}
