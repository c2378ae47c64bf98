package sortkey_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// tagCalls runs TagResource, UntagResource and ListTagsOfResource on arn
// and returns their errors, in that order.
func tagCalls(c *dynamodb.Client, arn string) []error {
	_, tagErr := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
	_, untagErr := c.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{"k"}})
	_, listErr := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
	return []error{tagErr, untagErr, listErr}
}

var tagActions = []string{"TagResource", "UntagResource", "ListTagsOfResource"}

// TestTagsOfMissingTable: a well-formed table ARN of the caller's account
// naming no table is not found, in any region; one of another account is
// denied; all three tagging operations alike (facts 33.2, rule 19).
func TestTagsOfMissingTable(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	for _, tc := range []struct{ arn, code string }{
		{"arn:aws:dynamodb:us-east-1:000000000000:table/nonexistent_table_xyz", "ResourceNotFoundException"},
		{"arn:aws:dynamodb:us-east-1:000000000000:table/tblx", "ResourceNotFoundException"},
		{"arn:aws:dynamodb:eu-west-1:000000000000:table/tbl", "ResourceNotFoundException"},
		{"arn:aws:dynamodb:us-east-1:123456789012:table/tbl", "AccessDeniedException"},
	} {
		for i, err := range tagCalls(c, tc.arn) {
			msg := "Requested resource not found: ResourceArn: " + tc.arn + " not found"
			if tc.code == "AccessDeniedException" {
				msg = "User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:" + tagActions[i] + " on resource: " + tc.arn
			}
			wantAPIError(t, err, tc.code, msg)
		}
	}
}

// TestTagsMalformedArnIsValidationError: an ARN that is not a table ARN's
// form is refused as invalid by all three tagging operations; something
// that is no ARN at all is told so (facts 33.1).
func TestTagsMalformedArnIsValidationError(t *testing.T) {
	c := sortkeytest.New(t).Client()
	for _, tc := range []struct{ arn, msg string }{
		{"I_do_not_exist", "One or more parameter values were invalid: ARNs must start with 'arn:': I_do_not_exist"},
		{"tbl", "One or more parameter values were invalid: ARNs must start with 'arn:': tbl"},
		{"arn:aws:dynamodb:us-east-1:000000000000:tbl", ""},
		{"arn:aws:dynamodb:us-east-1:000000000000:table/tbl/index/gsi", ""},
		{"arn:aws:s3:::bucket", ""},
		{"arn:aws:dynamodb:us-east-1:0000:table/tbl", ""},
		{"arn:aws:dynamodb:us-east-1:000000000000:table/a b", ""},
	} {
		if tc.msg == "" {
			tc.msg = "Invalid TableArn: Invalid ResourceArn provided as input " + tc.arn
		}
		for _, err := range tagCalls(c, tc.arn) {
			wantAPIError(t, err, "ValidationException", tc.msg)
		}
	}
}

// TestTagCharactersAndEmptyTags: tag keys and values hold only letters,
// digits, whitespace and + - = . _ : / (facts 33.3), on TagResource and
// CreateTable alike; TagResource needs at least one tag (facts 33.1).
func TestTagCharactersAndEmptyTags(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/tbl"
	const pattern = `Member must satisfy regular expression pattern: ^([\p{L}\p{Z}\p{N}_.:/=+\-]*)$`
	for _, bad := range []string{"hi!", "d%g", `"hello"`, "#!%^$&", "->>;-)])", `!!!\|`, "<><"} {
		_, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String(bad), Value: aws.String("v")}}})
		wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '"+bad+"' at 'tags.1.member.key' failed to satisfy constraint: "+pattern)
		_, err = c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String(bad)}}})
		wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '"+bad+"' at 'tags.1.member.value' failed to satisfy constraint: "+pattern)
	}
	in := simpleTable("tagged")
	in.Tags = []types.Tag{{Key: aws.String("hi!"), Value: aws.String("v")}}
	_, err := c.CreateTable(ctx, in)
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value 'hi!' at 'tags.1.member.key' failed to satisfy constraint: "+pattern)
	good := []types.Tag{{Key: aws.String("team name:a/b"), Value: aws.String("x+y-z=1.2_3 é")}}
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: good}); err != nil {
		t.Fatal(err)
	}
	_, err = c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{}})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '[]' at 'tags' failed to satisfy constraint: Member must have length greater than or equal to 1")
	// More than 50 tags in all, over several requests (facts 33.1).
	var many []types.Tag
	for i := range 49 {
		many = append(many, types.Tag{Key: aws.String(fmt.Sprint("k", i)), Value: aws.String("v")})
	}
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: many}); err != nil {
		t.Fatal(err)
	}
	_, err = c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String("one more"), Value: aws.String("v")}}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: The number of tags exceeds the limit of 50")
}
