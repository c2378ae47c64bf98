package sortkey_test

import (
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

// TestTagsOfMissingTableAreAccessDenied: a well-formed table ARN naming no
// table is denied, as DynamoDB answers ListTagsOfResource for one, by all
// three tagging operations alike, whatever region or account it names.
func TestTagsOfMissingTableAreAccessDenied(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	for _, arn := range []string{
		"arn:aws:dynamodb:us-east-1:000000000000:table/nonexistent_table_xyz",
		"arn:aws:dynamodb:us-east-1:123456789012:table/tbl",
		"arn:aws:dynamodb:eu-west-1:000000000000:table/tbl",
	} {
		for i, err := range tagCalls(c, arn) {
			wantAPIError(t, err, "AccessDeniedException",
				"User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:"+tagActions[i]+" on resource: "+arn)
		}
	}
}

// TestTagsMalformedArnIsValidationError: an ARN that is not a table ARN's
// form is refused as invalid by all three tagging operations.
func TestTagsMalformedArnIsValidationError(t *testing.T) {
	c := sortkeytest.New(t).Client()
	for _, arn := range []string{
		"tbl",
		"arn:aws:dynamodb:us-east-1:000000000000:tbl",
		"arn:aws:dynamodb:us-east-1:000000000000:table/tbl/index/gsi",
		"arn:aws:s3:::bucket",
		"arn:aws:dynamodb:us-east-1:0000:table/tbl",
		"arn:aws:dynamodb:us-east-1:000000000000:table/a b",
	} {
		for _, err := range tagCalls(c, arn) {
			wantAPIError(t, err, "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input "+arn)
		}
	}
}
