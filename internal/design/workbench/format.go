package workbench

import (
	"bytes"
	"encoding/json"
)

// The model file as Workbench writes it. AWS publishes no schema; the
// field names are those of exported models (the "3.0" format, and the
// "2.0" one that keeps sample items in facets). Members sortkey does not
// use are ignored on import.
type model struct {
	ModelName     string    `json:"ModelName"`
	ModelMetadata *metadata `json:"ModelMetadata,omitempty"`
	DataModel     []wbTable `json:"DataModel"`
}

type metadata struct {
	Author           string `json:"Author"`
	DateCreated      string `json:"DateCreated"`
	DateLastModified string `json:"DateLastModified"`
	Description      string `json:"Description"`
	AWSService       string `json:"AWSService"`
	Version          string `json:"Version"`
}

type wbTable struct {
	TableName              string          `json:"TableName"`
	KeyAttributes          keyAttributes   `json:"KeyAttributes"`
	NonKeyAttributes       []attribute     `json:"NonKeyAttributes"`
	TableFacets            []facet         `json:"TableFacets"`
	GlobalSecondaryIndexes []wbIndex       `json:"GlobalSecondaryIndexes"`
	TableData              []item          `json:"TableData"`
	DataAccess             json.RawMessage `json:"DataAccess,omitempty"`
	BillingMode            string          `json:"BillingMode,omitempty"`
}

type keyAttributes struct {
	PartitionKey keyList `json:"PartitionKey"`
	SortKey      keyList `json:"SortKey,omitempty"`
}

type attribute struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

type facet struct {
	FacetName         string          `json:"FacetName"`
	KeyAttributeAlias alias           `json:"KeyAttributeAlias"`
	TableData         []item          `json:"TableData"`
	NonKeyAttributes  []string        `json:"NonKeyAttributes"`
	DataAccess        json.RawMessage `json:"DataAccess,omitempty"`
}

type alias struct {
	PartitionKeyAlias string `json:"PartitionKeyAlias"`
	SortKeyAlias      string `json:"SortKeyAlias,omitempty"`
}

type wbIndex struct {
	IndexName     string        `json:"IndexName"`
	KeyAttributes keyAttributes `json:"KeyAttributes"`
	Projection    projection    `json:"Projection"`
}

type projection struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// item is a sample item in DynamoDB JSON: attribute name → {"S": "…"}.
type item map[string]json.RawMessage

// keyList is a key's attributes: Workbench writes one as an object;
// a list (multi-attribute GSI keys) is taken too.
type keyList []attribute

func (k *keyList) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		return json.Unmarshal(b, (*[]attribute)(k))
	}
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*k = nil
		return nil
	}
	var one attribute
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*k = keyList{one}
	return nil
}

func (k keyList) MarshalJSON() ([]byte, error) {
	if len(k) == 1 {
		return json.Marshal(k[0])
	}
	return json.Marshal([]attribute(k))
}

// stringValue is a sample value's text when it is a string or a number
// (the only types a key template describes).
func stringValue(raw json.RawMessage) (string, bool) {
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	for _, t := range []string{"S", "N"} {
		var s string
		if r, ok := v[t]; ok && json.Unmarshal(r, &s) == nil {
			return s, true
		}
	}
	return "", false
}
