package engine

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

func TestHoldsCancelOnlyTheMembersHeld(t *testing.T) {
	var h holds
	release, err := h.take([][]byte{[]byte("a"), []byte("b")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.take([][]byte{[]byte("c"), []byte("b")})
	if got := reasonCodes(err); !slices.Equal(got, []string{"None", "TransactionConflict"}) {
		t.Errorf("second take: %v", err)
	}
	if !h.held([]byte("a")) || h.held([]byte("c")) {
		t.Error("a refused take held c, or a is not held")
	}
	release()
	if h.held([]byte("a")) || h.n.Load() != 0 {
		t.Errorf("held after release: %d items", h.n.Load())
	}
	if _, err := h.take([][]byte{[]byte("c"), []byte("b")}); err != nil {
		t.Errorf("take after release: %v", err)
	}
}

func TestHoldsRefuseATokenInFlight(t *testing.T) {
	var h holds
	done, err := h.takeToken("t")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.takeToken("t"); err == nil || err.Error() != "TransactionInProgressException: "+MsgTxInProgress {
		t.Errorf("token in flight: %v", err)
	}
	done()
	if _, err := h.takeToken("t"); err != nil {
		t.Errorf("token after its request: %v", err)
	}
}

func reasonCodes(err error) []string {
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != apierr.TransactionCanceled {
		return nil
	}
	var codes []string
	for _, r := range ae.CancellationReasons.([]protocol.CancellationReason) {
		codes = append(codes, r.Code)
	}
	return codes
}

// BenchmarkRefuseHeldIdle is what every single-item write pays when no
// transaction is in flight.
func BenchmarkRefuseHeldIdle(b *testing.B) {
	var h holds
	key := []byte("item")
	for b.Loop() {
		if h.refuseHeld(key) != nil {
			b.Fatal("held")
		}
	}
}

// BenchmarkRefuseHeldBusy is the same while another transaction holds
// other items.
func BenchmarkRefuseHeldBusy(b *testing.B) {
	var h holds
	release, _ := h.take([][]byte{[]byte("other")})
	defer release()
	key := []byte("item")
	for b.Loop() {
		if h.refuseHeld(key) != nil {
			b.Fatal("held")
		}
	}
}

// BenchmarkHoldsTake4 is what a transaction of four items pays to hold
// and release them.
func BenchmarkHoldsTake4(b *testing.B) {
	var h holds
	keys := make([][]byte, 4)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "item%d", i)
	}
	for b.Loop() {
		release, err := h.take(keys)
		if err != nil {
			b.Fatal(err)
		}
		release()
	}
}
