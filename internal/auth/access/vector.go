package access

import "github.com/sortkeydb/sortkey/internal/protocol"

// searchVectors is SearchVectors on the vector index's ARN. It has no
// DynamoDB condition keys: fine-grained access control does not apply to
// it (the Developer Guide's vector search security page), so a statement
// conditioned on dynamodb:LeadingKeys finds the key absent.
func searchVectors(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.SearchVectorsInput)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(r.TableName, c)
	return []Check{t.check(actionPrefix+"SearchVectors", str(r.IndexName))}, nil
}
