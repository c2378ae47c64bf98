package iampolicy

import (
	"sync"
	"testing"
)

var fuzzSeeds = []string{
	`{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}}`,
	`{"Statement":[{"Sid":"a","Effect":"Deny","NotAction":"s3:*","NotResource":"arn:aws:s3:::b/*"}]}`,
	`{"Version":"2012-10-17","Statement":{"Effect":"Allow","Principal":{"AWS":["123456789012","arn:aws:iam::123456789012:role/r"]},"Action":"dynamodb:Get*","Resource":"arn:aws:dynamodb:*:*:table/${aws:username, 'x'}/*"}}`,
	`{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":"${aws:PrincipalTag/t}*"},"NumericLessThan":{"t:n":5},"DateGreaterThan":{"aws:CurrentTime":"2020-01-01"},"IpAddress":{"aws:SourceIp":"10.0.0.0/8"},"Null":{"t:x":"true"},"BinaryEquals":{"t:b":"QQ=="},"Bool":{"t:c":true},"ArnLike":{"t:a":"arn:*:*:*:*:*"}}}}`,
	`{"Statement":[]}`,
	`{"Version":"2012-10-17","Statement":{"Effect":"Allow","NotPrincipal":"*","Action":"*","Resource":"${$}${*}${?}${a:b,'''}"}}`,
}

// fuzzRequests are evaluated against every accepted policy.
func fuzzRequests() []*Request {
	a := request("aws:username", "alice", "aws:PrincipalTag/t", "acme", "dynamodb:LeadingKeys", "acme1|acme2",
		"t:n", "3", "aws:CurrentTime", "2024-05-05T00:00:00Z", "aws:SourceIp", "10.1.1.1", "t:b", "QQ==", "t:c", "true",
		"t:a", "arn:aws:sns:us-east-1:123456789012:t")
	b := &Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::b/k", Principal: "arn:aws:sts::123456789012:assumed-role/r/s"}
	c := &Request{Action: "", Resource: "::::::", Context: Context{"t:n": {"x", ""}, "aws:sourceip": {"::1"}}}
	return []*Request{a, b, c}
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, doc []byte, resource bool) {
		kind := Identity
		if resource {
			kind = Resource
		}
		p, err := Parse(doc, kind)
		if (p == nil) == (err == nil) {
			t.Fatalf("Parse returned (%v, %v): exactly one must be nil", p, err)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error text")
			}
			return
		}
		for _, r := range fuzzRequests() {
			res := p.Evaluate(r)
			if (res.Decision == NotApplicable) != (res.Statement == nil) {
				t.Fatalf("result %+v: a statement must come with a decision", res)
			}
		}
	})
}

// Evaluate must be safe for concurrent use (run with -race to check).
func TestConcurrentEvaluate(t *testing.T) {
	p := mustParse(t, fuzzSeeds[3], Identity)
	want := p.Evaluate(fuzzRequests()[0]).Decision
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if got := p.Evaluate(fuzzRequests()[0]).Decision; got != want {
					t.Errorf("concurrent Evaluate = %v, want %v", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
