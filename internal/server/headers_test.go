package server

import (
	"strconv"
	"testing"
)

// TestHeaderValuesKeepEarlierStrings writes the body headers twice, as a
// panic after an answer would, and more numbers than the text holds: no
// string handed out changes afterwards, and every number reads back.
func TestHeaderValuesKeepEarlierStrings(t *testing.T) {
	hv := new(headerValues)
	id := hv.requestID()
	idCopy := string([]byte(id))
	first := hv.bodyValues()
	first[1], first[2] = hv.number(123456), hv.number(4294967295)
	second := hv.bodyValues()
	if &second[0] == &first[0] {
		t.Fatal("a second body reused the first one's slots")
	}
	var got []string
	for n := range uint64(10) {
		got = append(got, hv.number(n*1e15+n))
	}
	for n, s := range got {
		if want := strconv.FormatUint(uint64(n)*1e15+uint64(n), 10); s != want {
			t.Errorf("number %d = %q", n, s)
		}
	}
	if id != idCopy || len(id) != requestIDLen || first[1] != "123456" || first[2] != "4294967295" {
		t.Errorf("earlier values changed: %q %q %q", id, first[1], first[2])
	}
}

// TestDescribeEndpointsNamesHost: the Host reaches DescribeEndpoints, the
// one operation given it.
func TestDescribeEndpointsNamesHost(t *testing.T) {
	rec := do(newTestHandler(t), "DescribeEndpoints", []byte(`{}`))
	if want := `{"Endpoints":[{"Address":"example.com","CachePeriodInMinutes":1440}]}`; rec.Body.String() != want {
		t.Errorf("got %s, want %s", rec.Body, want)
	}
}
