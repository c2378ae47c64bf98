package validate

import (
	"reflect"
	"strings"
	"sync"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// refusedText is the one message for a member sortkey does not implement:
// it names the member, says the limit is sortkey's (DynamoDB accepts it)
// and what to do.
const refusedText = "%s is not supported by sortkey; remove it from the request"

// refusedMember is one protocol.Refused field of an input struct.
type refusedMember struct {
	index int
	name  string
}

var refusedMembers sync.Map // reflect.Type of an input struct -> []refusedMember

// Refused reports the first member of in, a pointer to an input struct,
// that is a protocol.Refused the request set. Validators call it once the
// model checks have passed, as DynamoDB judges a request's shape before
// what it asks for. The operations that call it are control-plane ones;
// the hot item operations have no refused members and never do.
func Refused(in any) error {
	v := reflect.ValueOf(in).Elem()
	for _, m := range membersOf(v.Type()) {
		if v.Field(m.index).Interface().(protocol.Refused).Set() {
			return apierr.Validationf(refusedText, m.name)
		}
	}
	return nil
}

// membersOf lists t's Refused fields once and remembers them.
func membersOf(t reflect.Type) []refusedMember {
	if ms, ok := refusedMembers.Load(t); ok {
		return ms.([]refusedMember)
	}
	var ms []refusedMember
	for i := range t.NumField() {
		if f := t.Field(i); f.Type == reflect.TypeFor[protocol.Refused]() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			ms = append(ms, refusedMember{index: i, name: name})
		}
	}
	refusedMembers.Store(t, ms)
	return ms
}
