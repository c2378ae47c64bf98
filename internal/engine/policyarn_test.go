package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

func TestParseResourceArn(t *testing.T) {
	good := map[string]resourceRef{
		"arn:aws:dynamodb:us-east-1:123456789012:table/Music": {region: "us-east-1", account: "123456789012", table: "Music"},
		"arn:aws:dynamodb:eu-west-1:123456789012:table/Music/index/byArtist": {region: "eu-west-1", account: "123456789012",
			table: "Music", index: "byArtist"},
		"arn:aws:dynamodb:us-east-1:123456789012:table/Music/stream/2024-02-12T18:57:26.492": {region: "us-east-1",
			account: "123456789012", table: "Music", stream: "2024-02-12T18:57:26.492"},
	}
	for arn, want := range good {
		got, err := parseResourceArn(arn)
		if err != nil || got != want || got.String() != arn {
			t.Errorf("%s: got %+v (%q), %v", arn, got, got.String(), err)
		}
	}
	bad := map[string]string{
		"table/Music":         msgArnNotArn,
		"arn:aws:s3:::bucket": msgArnNotDynamoDB,
		"arn:aws:dynamodb":    msgArnNotDynamoDB,
		"arn:aws:dynamodb:us-east-1:123456789012:table/Music/backup/01": msgArnNotPolicy,
		"arn:aws:dynamodb:us-east-1:123456789012:table/Music/stream/":   msgArnNotPolicy,
		"arn:aws:dynamodb:us-east-1:123456789012:table/Music/index/a/b": msgArnNotPolicy,
		"arn:aws:dynamodb:us-east-1:1234:table/Music":                   msgArnNotPolicy,
		"arn:aws:dynamodb::123456789012:table/Music":                    msgArnNotPolicy,
		"arn:aws:dynamodb::123456789012:global-table/Music":             msgArnNotPolicy,
		"arn:aws:dynamodb:us-east-1:123456789012:table/a b":             msgArnNotPolicy,
	}
	for arn, format := range bad {
		_, err := parseResourceArn(arn)
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code != apierr.Validation || ae.Message != strings.Replace(format, "%s", arn, 1) {
			t.Errorf("%s: got %v", arn, err)
		}
	}
}

// FuzzParseResourceArn: any string is either refused with a
// ValidationException or read into a reference that renders back to it.
func FuzzParseResourceArn(f *testing.F) {
	f.Add("arn:aws:dynamodb:us-east-1:123456789012:table/Music/stream/2024-02-12T18:57:26.492")
	f.Add("arn:aws:dynamodb:us-east-1:123456789012:table/Music/index/byArtist")
	f.Add("arn:aws:dynamodb:us-east-1:000000000000:table/t")
	f.Add("arn:aws:s3:::x")
	f.Fuzz(func(t *testing.T, arn string) {
		ref, err := parseResourceArn(arn)
		var ae *apierr.Error
		switch {
		case err != nil && (!errors.As(err, &ae) || ae.Code != apierr.Validation):
			t.Fatalf("%q: %v", arn, err)
		case err == nil && ref.String() != arn:
			t.Fatalf("%q read as %+v, which renders %q", arn, ref, ref.String())
		}
	})
}
