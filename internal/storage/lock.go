package storage

import (
	"errors"
	"strings"
	"syscall"
)

// isLockErr reports whether Pebble failed to take the directory's LOCK file
// because another process holds it.
func isLockErr(err error) bool {
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK) {
		return true
	}
	return strings.Contains(err.Error(), "lock held by current process") ||
		strings.Contains(err.Error(), "resource temporarily unavailable")
}
