package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"sync"
	"time"
)

// maxCachedKeys caps the cache whatever the number of access keys; past it
// the cache starts over, which costs four HMACs per key once.
const maxCachedKeys = 4096

// keyID names one derived signing key. The secret is part of it so that a
// rotated secret under the same access key ID derives a fresh key instead of
// reusing the old one.
type keyID struct {
	accessKeyID, secret, date, region, service string
}

// keyCache holds derived signing keys. Only requests within the clock
// window reach it, so live entries span at most two dates; entries for older
// dates are dropped whenever a newer date arrives. The zero value is ready.
type keyCache struct {
	mu     sync.RWMutex
	newest string // the newest scope date seen, YYYYMMDD
	keys   map[keyID]*signer
}

// signer signs with one derived key. Keyed HMAC states are recycled: a
// new one costs five allocations, more than the rest of a verification.
type signer struct {
	macs sync.Pool // of hash.Hash, HMAC-SHA256 keyed with the signing key
}

func newSigner(key [sha256.Size]byte) *signer {
	s := &signer{}
	s.macs.New = func() any { return hmac.New(sha256.New, key[:]) }
	return s
}

// sign appends the lowercase hex HMAC of msg to dst.
func (s *signer) sign(dst, msg []byte) []byte {
	h := s.macs.Get().(hash.Hash)
	h.Reset()
	h.Write(msg)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	s.macs.Put(h)
	return hex.AppendEncode(dst, sum[:])
}

// signingKey returns the signer for id, deriving and caching its key if
// needed.
func (c *keyCache) signingKey(id keyID) *signer {
	c.mu.RLock()
	k, ok := c.keys[id]
	c.mu.RUnlock()
	if ok {
		return k
	}
	k = newSigner(deriveKey(id))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keys == nil || len(c.keys) >= maxCachedKeys {
		c.keys = make(map[keyID]*signer)
	}
	if id.date > c.newest {
		c.newest = id.date
		c.dropBefore(previousDay(id.date))
	}
	c.keys[id] = k
	return k
}

// dropBefore forgets keys for dates earlier than date (YYYYMMDD strings
// order like the dates they name).
func (c *keyCache) dropBefore(date string) {
	for id := range c.keys {
		if id.date < date {
			delete(c.keys, id)
		}
	}
}

func previousDay(date string) string {
	t, err := time.Parse(scopeFmt, date)
	if err != nil {
		return date
	}
	return t.AddDate(0, 0, -1).Format(scopeFmt)
}

// deriveKey is SigV4's key derivation: HMAC chained over date, region,
// service and terminator, starting from "AWS4" + secret.
func deriveKey(id keyID) [sha256.Size]byte {
	k := hmacSHA256([]byte("AWS4"+id.secret), id.date)
	k = hmacSHA256(k, id.region)
	k = hmacSHA256(k, id.service)
	k = hmacSHA256(k, terminator)
	return [sha256.Size]byte(k)
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}
