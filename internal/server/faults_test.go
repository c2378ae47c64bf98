package server

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// fakeInjector records what it is asked and answers with fault.
type fakeInjector struct {
	active bool
	fault  *Fault
	asked  []string
}

func (f *fakeInjector) Active() bool { return f.active }

func (f *fakeInjector) Inject(_ context.Context, op string, in any, principal string) *Fault {
	if p, ok := in.(*protocol.PutItemInput); ok {
		op += " " + *p.TableName
	}
	f.asked = append(f.asked, op)
	return f.fault
}

const simpleTable = `{"TableName":"Things","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`

func TestInjectorAskedOnlyWhileActive(t *testing.T) {
	h := newTestHandler(t)
	inj := &fakeInjector{}
	h.SetInjector(inj)
	do(h, "CreateTable", []byte(simpleTable))
	if len(inj.asked) != 0 {
		t.Errorf("an inactive injector was asked: %v", inj.asked)
	}
	inj.active = true
	do(h, "PutItem", []byte(`{"TableName":"Things","Item":{"pk":{"S":"a"}}}`))
	if len(inj.asked) != 1 || inj.asked[0] != "PutItem Things" {
		t.Errorf("asked %v, want the decoded PutItem", inj.asked)
	}
}

func TestInjectedErrorRunsNoEngine(t *testing.T) {
	h := newTestHandler(t)
	do(h, "CreateTable", []byte(simpleTable))
	h.SetInjector(&fakeInjector{active: true, fault: &Fault{Err: apierr.New(apierr.Throttling, "slow down")}})
	if rec := do(h, "PutItem", []byte(`{"TableName":"Things","Item":{"pk":{"S":"a"}}}`)); rec.Code != 400 {
		t.Fatalf("PutItem under an error fault: %d %s", rec.Code, rec.Body)
	}
	h.SetInjector(nil)
	if rec := do(h, "GetItem", []byte(`{"TableName":"Things","Key":{"pk":{"S":"a"}},"ConsistentRead":true}`)); rec.Body.String() != "{}" {
		t.Errorf("the item was written: %s", rec.Body)
	}
}

func TestDropWithoutHijackAborts(t *testing.T) {
	h := newTestHandler(t)
	h.SetInjector(&fakeInjector{active: true, fault: &Fault{Drop: true}})
	defer func() {
		if p := recover(); !errors.Is(asError(p), http.ErrAbortHandler) {
			t.Errorf("recovered %v, want http.ErrAbortHandler", p)
		}
	}()
	do(h, "ListTables", []byte(`{}`)) // a recorder cannot be hijacked
	t.Error("the call was answered")
}

func asError(p any) error {
	err, _ := p.(error)
	return err
}
