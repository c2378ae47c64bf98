package auth

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSignInChecksTheWholeCredential(t *testing.T) {
	session := `{"arn": "arn:aws:sts::123456789012:assumed-role/R/s", "accessKeyId": "ASIAS", "secretAccessKey": "s", "sessionToken": "tok"}`
	a := newTestAuthorizer(t, &fakeTables{}, principalJSON(userA, "AKID", ""), session)
	l, err := a.SignIn("AKID", "s", "")
	if err != nil || l.Arn != userA || l.AccessKeyID != "AKID" {
		t.Fatalf("right secret: %+v, %v", l, err)
	}
	if l, err := a.SignIn("ASIAS", "s", "tok"); err != nil || !strings.HasSuffix(l.Arn, "/R/s") {
		t.Fatalf("session with its token: %+v, %v", l, err)
	}
	for _, c := range [][3]string{{"AKID", "x", ""}, {"AKID", "", ""}, {"AKID", "s", "tok"}, {"NOPE", "s", ""},
		{"ASIAS", "s", ""}, {"ASIAS", "s", "other"}, {"ASIAS", "stok", ""}, {"", "", ""}} {
		if l, err := a.SignIn(c[0], c[1], c[2]); !errors.Is(err, ErrSignIn) || l != (Login{}) {
			t.Errorf("%q: %+v, %v; want ErrSignIn", c, l, err)
		}
	}
}

func TestActFollowsTheAuthFileInForce(t *testing.T) {
	get := policyJSON("Allow", "dynamodb:GetItem", "*")
	a := newTestAuthorizer(t, &fakeTables{}, principalJSON(userA, "AKID", `, "policies": [`+get+`]`))
	l, err := a.SignIn("AKID", "s", "")
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/console/", nil)
	r.RemoteAddr = "192.0.2.1:4000"
	c, err := a.Act(l, r)
	if err != nil || c.Arn != userA || c.SourceIP != "192.0.2.1" {
		t.Fatalf("Act: %+v, %v", c, err)
	}
	reload := func(doc string) {
		t.Helper()
		cfg, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Reload(cfg); err != nil {
			t.Fatal(err)
		}
	}
	reload(fileJSON(principalJSON(userA, "AKID", "")))
	if c, err := a.Act(l, r); err != nil || len(c.Policies) != 0 {
		t.Fatalf("after a reload without the policy: %v policies, %v", len(c.Policies), err)
	}
	for _, doc := range []string{
		fileJSON(principalJSON(userA, "AKID2", "")),                                   // key removed
		fileJSON(principalJSON("arn:aws:iam::123456789012:user/b", "AKID", "")),       // key given to another
		strings.Replace(fileJSON(principalJSON(userA, "AKID", "")), `"s"`, `"s2"`, 1), // secret rotated
	} {
		reload(doc)
		if _, err := a.Act(l, r); !errors.Is(err, ErrSignedOut) {
			t.Errorf("after reloading %s: %v, want ErrSignedOut", doc, err)
		}
	}
	if _, err := a.Act(Login{}, r); !errors.Is(err, ErrSignedOut) {
		t.Errorf("the zero Login acts: %v", err)
	}
}
