package iampolicy

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	const stmt = `"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"*"`
	const rstmt = `"Effect":"Allow","Principal":"*","Action":"dynamodb:GetItem","Resource":"*"`
	cases := []struct {
		name string
		kind Kind
		doc  string
		want string
	}{
		{"not JSON", Identity, `{"Statement":`, "This policy contains invalid Json"},
		{"not an object", Identity, `[1,2]`, "This policy contains invalid Json"},
		{"JSON null", Identity, `null`, "This policy contains invalid Json"},
		{"invalid UTF-8", Identity, "{\"Id\":\"\xff\"}", "This policy contains invalid Json"},
		{"character above U+00FF", Identity, `{"Id":"日本",` + `"Statement":{` + stmt + `}}`, "This policy contains invalid characters"},
		{"control character", Identity, "{\"Id\":\"a\x01\",\"Statement\":{" + stmt + "}}", "This policy contains invalid characters"},
		{"unknown top-level element", Identity, `{"Statement":{` + stmt + `},"Extra":1}`, "Unknown field Extra"},
		{"bad version", Identity, `{"Version":"2012-10-18","Statement":{` + stmt + `}}`, "The policy failed legacy parsing"},
		{"version not a string", Identity, `{"Version":2012,"Statement":{` + stmt + `}}`, "The policy failed legacy parsing"},
		{"Id not a string", Identity, `{"Id":1,"Statement":{` + stmt + `}}`, "Id must be a string"},
		{"missing Statement", Identity, `{"Version":"2012-10-17"}`, "Missing required field Statement"},
		{"empty Statement", Identity, `{"Statement":[]}`, "Could not parse the policy: Statement is empty!"},
		{"statement not an object", Identity, `{"Statement":["x"]}`, "Statement must be an object or a list of objects"},
		{"unknown statement element", Identity, `{"Statement":{` + stmt + `,"Conditions":{}}}`, "Unknown field Conditions"},
		{"duplicate Sid", Identity, `{"Statement":[{"Sid":"A",` + stmt + `},{"Sid":"A",` + stmt + `}]}`, "The Statement Ids in the policy are not unique"},
		{"Sid not a string", Identity, `{"Statement":{"Sid":1,` + stmt + `}}`, "Sid must be a string"},
		{"missing Effect", Identity, `{"Statement":{"Action":"s3:x","Resource":"*"}}`, "Missing required field Effect"},
		{"lowercase effect", Identity, `{"Statement":{"Effect":"allow","Action":"s3:x","Resource":"*"}}`, `Invalid effect: "allow"`},
		{"missing Action", Identity, `{"Statement":{"Effect":"Allow","Resource":"*"}}`, "Missing required field Action"},
		{"empty Action list", Identity, `{"Statement":{"Effect":"Allow","Action":[],"Resource":"*"}}`, "Missing required field Action"},
		{"Action and NotAction", Identity, `{"Statement":{` + stmt + `,"NotAction":"s3:x"}}`, "Statement cannot contain both Action and NotAction"},
		{"Action not strings", Identity, `{"Statement":{"Effect":"Allow","Action":[1],"Resource":"*"}}`, "Action must be a string or a list of strings"},
		{"action without vendor", Identity, `{"Statement":{"Effect":"Allow","Action":"GetItem","Resource":"*"}}`, "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc."},
		{"wildcard vendor", Identity, `{"Statement":{"Effect":"Allow","Action":"dynamo*:GetItem","Resource":"*"}}`, "Action dynamo*:GetItem is not valid"},
		{"missing Resource", Identity, `{"Statement":{"Effect":"Allow","Action":"dynamodb:GetItem"}}`, "Missing required field Resource"},
		{"Resource and NotResource", Identity, `{"Statement":{` + stmt + `,"NotResource":"*"}}`, "Statement cannot contain both Resource and NotResource"},
		{"Resource not an ARN", Identity, `{"Statement":{"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"table/Orders"}}`, `Resource table/Orders must be in ARN format or "*".`},
		{"Principal in identity policy", Identity, `{"Statement":{` + rstmt + `}}`, "Policy document should not specify a principal."},
		{"NotPrincipal in identity policy", Identity, `{"Statement":{"NotPrincipal":"*",` + stmt + `}}`, "Policy document should not specify a principal."},
		{"missing Principal in resource policy", Resource, `{"Statement":{` + stmt + `}}`, "Missing required field Principal"},
		{"Principal and NotPrincipal", Resource, `{"Statement":{` + rstmt + `,"NotPrincipal":"*"}}`, "Statement cannot contain both Principal and NotPrincipal"},
		{"Principal string other than star", Resource, `{"Statement":{"Principal":"123456789012",` + stmt + `}}`, "Invalid principal in policy document."},
		{"Principal unknown type", Resource, `{"Statement":{"Principal":{"Robot":"x"},` + stmt + `}}`, "Invalid principal in policy document."},
		{"Principal partial wildcard", Resource, `{"Statement":{"Principal":{"AWS":"arn:aws:iam::123456789012:user/*"},` + stmt + `}}`, "Invalid principal in policy document."},
		{"Principal not an ARN", Resource, `{"Statement":{"Principal":{"AWS":"alice"},` + stmt + `}}`, "Invalid principal in policy document."},
		{"Principal empty list", Resource, `{"Statement":{"Principal":{"AWS":[]},` + stmt + `}}`, "Invalid principal in policy document."},
		{"invalid dynamodb actions", Resource, `{"Statement":{"Principal":"*","Effect":"Allow","Action":["dynamodb:GetItems","dynamodb:Get*","dynamodb:Frob*"],"Resource":"*"}}`, "The following action names are invalid: dynamodb:GetItems, dynamodb:Frob*"},
		{"condition not an object", Identity, `{"Statement":{` + stmt + `,"Condition":[]}}`, "Condition must map operators to objects of condition keys"},
		{"unknown operator", Identity, `{"Statement":{` + stmt + `,"Condition":{"StringMatches":{"a:b":"c"}}}}`, "Invalid Condition type : StringMatches."},
		{"unknown set prefix", Identity, `{"Statement":{` + stmt + `,"Condition":{"ForSomeValues:StringEquals":{"a:b":"c"}}}}`, "Invalid Condition type : ForSomeValues:StringEquals."},
		{"NullIfExists", Identity, `{"Statement":{` + stmt + `,"Condition":{"NullIfExists":{"a:b":"true"}}}}`, "Invalid Condition type : NullIfExists."},
		{"condition key without vendor", Identity, `{"Statement":{` + stmt + `,"Condition":{"StringEquals":{"user":"c"}}}}`, "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc."},
		{"condition with no values", Identity, `{"Statement":{` + stmt + `,"Condition":{"StringEquals":{"a:b":[]}}}}`, "Condition StringEquals for key a:b must have at least one value"},
		{"condition value an object", Identity, `{"Statement":{` + stmt + `,"Condition":{"StringEquals":{"a:b":{"c":1}}}}}`, "Condition StringEquals for key a:b must have at least one value"},
		{"bad number", Identity, `{"Statement":{` + stmt + `,"Condition":{"NumericLessThan":{"a:b":"ten"}}}}`, `Invalid value "ten" for condition NumericLessThan`},
		{"bad date", Identity, `{"Statement":{` + stmt + `,"Condition":{"DateLessThan":{"aws:CurrentTime":"tomorrow"}}}}`, `Invalid value "tomorrow" for condition DateLessThan`},
		{"bad CIDR", Identity, `{"Statement":{` + stmt + `,"Condition":{"IpAddress":{"aws:SourceIp":"300.0.0.0/8"}}}}`, `Invalid value "300.0.0.0/8" for condition IpAddress`},
		{"bad bool", Identity, `{"Statement":{` + stmt + `,"Condition":{"Bool":{"aws:SecureTransport":"yes"}}}}`, `Invalid value "yes" for condition Bool`},
		{"bad base64", Identity, `{"Statement":{` + stmt + `,"Condition":{"BinaryEquals":{"a:b":"!!"}}}}`, `Invalid value "!!" for condition BinaryEquals`},
		{"bad Null", Identity, `{"Statement":{` + stmt + `,"Condition":{"Null":{"a:b":"maybe"}}}}`, `Invalid value "maybe" for condition Null`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse([]byte(c.doc), c.kind)
			if err == nil {
				t.Fatalf("Parse accepted %s", c.doc)
			}
			var pe *Error
			if !errors.As(err, &pe) || p != nil {
				t.Fatalf("Parse returned (%v, %T), want (nil, *Error)", p, err)
			}
			if err.Error() != c.want {
				t.Errorf("error = %q, want %q", err.Error(), c.want)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	cases := []struct {
		name string
		kind Kind
		doc  string
	}{
		{"statement array, both versions", Identity, `{"Version":"2008-10-17","Id":"x","Statement":[{"Sid":"A","Effect":"Deny","NotAction":["s3:*"],"NotResource":["arn:aws:s3:::b"]}]}`},
		{"whitespace, tab and Latin-1", Identity, "{\n\t\"Id\": \"café ÿ\",\r\n \"Statement\": {\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}}"},
		{"empty Sids may repeat", Identity, `{"Statement":[{"Sid":"","Effect":"Allow","Action":"*","Resource":"*"},{"Sid":"","Effect":"Allow","Action":"*","Resource":"*"}]}`},
		{"unknown dynamodb action in identity policy", Identity, `{"Statement":{"Effect":"Allow","Action":"dynamodb:GetItems","Resource":"*"}}`},
		{"other services unchecked", Resource, `{"Statement":{"Principal":"*","Effect":"Allow","Action":"s3:NoSuchThing","Resource":"*"}}`},
		{"every principal form", Resource, `{"Statement":{"Principal":{"AWS":["*","123456789012","arn:aws:iam::123456789012:root","arn:aws:iam::123456789012:role/r"],"Service":"lambda.amazonaws.com","Federated":"cognito-identity.amazonaws.com","CanonicalUser":"79a59df900b949e55d96a1e698fbaced"},"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}}`},
		{"NotPrincipal", Resource, `{"Statement":{"NotPrincipal":{"AWS":"arn:aws:iam::123456789012:user/bob"},"Effect":"Deny","Action":"dynamodb:*","Resource":"*"}}`},
		{"every dynamodb action known", Resource, `{"Statement":{"Principal":"*","Effect":"Allow","Action":["dynamodb:` + strings.Join(DynamoDBActions(), `","dynamodb:`) + `"],"Resource":"*"}}`},
		{"action names case-insensitive", Resource, `{"Statement":{"Principal":"*","Effect":"Allow","Action":["DynamoDB:getitem","dynamodb:partiql*"],"Resource":"*"}}`},
		{"variable in 2008 policy is literal", Identity, `{"Statement":{"Effect":"Allow","Action":"*","Resource":"arn:aws:dynamodb:*:*:table/${aws:username}"}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mustParse(t, c.doc, c.kind) })
	}
}

func TestStatementMetadata(t *testing.T) {
	doc := `{"Version":"2012-10-17","Id":"P1","Statement":[
  {"Sid":"First","Effect":"Allow","Action":"dynamodb:GetItem","Resource":"*"},
  {"Effect":"Deny", "Action":"dynamodb:PutItem","Resource":"*"}]}`
	p := mustParse(t, doc, Identity)
	if p.Version() != Version2012 || p.ID() != "P1" || len(p.Statements()) != 2 {
		t.Fatalf("Version %q ID %q statements %d", p.Version(), p.ID(), len(p.Statements()))
	}
	s := p.Statements()[1]
	if s.Sid != "" || s.Index != 1 || s.Effect != "Deny" {
		t.Errorf("statement 1 = %+v", s)
	}
	if want := `{"Effect":"Deny", "Action":"dynamodb:PutItem","Resource":"*"}`; s.JSON() != want {
		t.Errorf("JSON() = %q, want %q", s.JSON(), want)
	}
	single := mustParse(t, `{"Statement": {"Effect":"Allow","Action":"*","Resource":"*"} }`, Identity)
	if got := single.Statements()[0].JSON(); got != `{"Effect":"Allow","Action":"*","Resource":"*"}` {
		t.Errorf("single statement JSON() = %q", got)
	}
	if single.Version() != Version2008 {
		t.Errorf("missing Version = %q, want %q", single.Version(), Version2008)
	}
}
