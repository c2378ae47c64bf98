package auth

import "testing"

// FuzzParse feeds arbitrary auth files to Parse: it must refuse or
// accept, never panic, and an accepted file must name its principals.
func FuzzParse(f *testing.F) {
	f.Add(fileJSON(principalJSON(userA, "AKID", `, "tags": {"t": "v"}, "policies": [`+allowAll+`]`)))
	f.Add(fileJSON(principalJSON("arn:aws:sts::123456789012:assumed-role/R/s", "ASIA", `, "sessionToken": "x"`)))
	f.Add(`{"account": "123456789012", "principals": [{}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		cfg, err := Parse([]byte(doc))
		if err != nil {
			return
		}
		for arn, p := range cfg.byArn {
			if p.Arn != arn || cfg.byKey[p.AccessKeyID] != p {
				t.Fatalf("principal %q filed wrongly", arn)
			}
		}
	})
}
