package console

import "testing"

// FuzzUpdateForm: the update form is anyone's; it gives requests that
// carry only what was asked for, or an error, never a panic.
func FuzzUpdateForm(f *testing.F) {
	f.Add("PROVISIONED", "5", "on", "G", "g", "on", "exp")
	f.Add("", "x", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, billing, rcu, stream, gsi, pk, ttl, attr string) {
		in, tl, err := updForm{Billing: billing, RCU: rcu, WCU: rcu, Stream: stream, GSIName: gsi, GSIPK: pk,
			GSIPKType: "S", GSIProj: "ALL", TTL: ttl, TTLAttr: attr}.inputs("T")
		if err == nil && in == nil && tl == nil {
			t.Fatal("no error and no request")
		}
		if in != nil && in.BillingMode == "PROVISIONED" && in.ProvisionedThroughput == nil {
			t.Fatal("provisioned without throughput")
		}
		if tl != nil && ttl != "on" && ttl != "off" {
			t.Fatalf("TTL request for %q", ttl)
		}
	})
}
