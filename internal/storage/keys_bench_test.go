package storage

import "testing"

// BenchmarkPartitionHash is the layout hash every item key pays for once
// (MD5 of the encoded partition key), beside the FNV-1a it replaced.
func BenchmarkPartitionHash(b *testing.B) {
	pk := []byte("CUSTOMER#0123456789\x00\x01")
	b.Run("md5", func(b *testing.B) {
		for b.Loop() {
			PartitionHash(pk)
		}
	})
	b.Run("fnv-legacy", func(b *testing.B) {
		for b.Loop() {
			LegacyPartitionHash(pk)
		}
	})
}
