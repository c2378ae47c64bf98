package design

// Pos is where an element was written: 1-based line and column, as
// editors count them. The zero Pos means "not from a file".
type Pos struct {
	Line, Col int
}

// Design is one design file.
type Design struct {
	Version     int            `yaml:"version" json:"version"` // 1
	Name        string         `yaml:"name" json:"name"`
	Description string         `yaml:"description,omitempty" json:"description,omitempty"`
	Tables      []Table        `yaml:"tables" json:"tables"`
	Entities    []Entity       `yaml:"entities" json:"entities"`
	Patterns    []Pattern      `yaml:"patterns" json:"patterns"`
	Writes      []WritePattern `yaml:"writes,omitempty" json:"writes,omitempty"`
	Pos         Pos            `yaml:"-" json:"-"`
	File        string         `yaml:"-" json:"-"` // the path it was read from, for messages
}

// KeyAttr is one key attribute: its name and scalar type (S, N or B).
type KeyAttr struct {
	Name string `yaml:"name" json:"name"`
	Type string `yaml:"type" json:"type"`
	Pos  Pos    `yaml:"-" json:"-"`
}

// Table is a DynamoDB table as designed.
type Table struct {
	Name         string  `yaml:"name" json:"name"`
	PartitionKey KeyAttr `yaml:"partitionKey" json:"partitionKey"`
	// SortKey is nil for a table with a simple primary key.
	SortKey     *KeyAttr `yaml:"sortKey,omitempty" json:"sortKey,omitempty"`
	BillingMode string   `yaml:"billingMode,omitempty" json:"billingMode,omitempty"` // PAY_PER_REQUEST (default) or PROVISIONED
	// TTL is the Time to Live attribute, "" for none.
	TTL string `yaml:"ttl,omitempty" json:"ttl,omitempty"`
	// Stream is the stream view type (NEW_IMAGE, OLD_IMAGE,
	// NEW_AND_OLD_IMAGES, KEYS_ONLY), "" for no stream.
	Stream string  `yaml:"stream,omitempty" json:"stream,omitempty"`
	GSIs   []Index `yaml:"globalSecondaryIndexes,omitempty" json:"globalSecondaryIndexes,omitempty"`
	LSIs   []Index `yaml:"localSecondaryIndexes,omitempty" json:"localSecondaryIndexes,omitempty"`
	// VectorIndexes are the table's vector indexes, which SearchVectors
	// patterns read (see vector.go).
	VectorIndexes []VectorIndex `yaml:"vectorIndexes,omitempty" json:"vectorIndexes,omitempty"`
	Pos           Pos           `yaml:"-" json:"-"`
}

// Index is a global or local secondary index. A GSI's keys may have up to
// four attributes each (multi-attribute keys); an LSI has the table's
// partition key and one sort key attribute.
type Index struct {
	Name         string     `yaml:"name" json:"name"`
	PartitionKey KeyAttrs   `yaml:"partitionKey" json:"partitionKey"`
	SortKey      KeyAttrs   `yaml:"sortKey,omitempty" json:"sortKey,omitempty"`
	Projection   Projection `yaml:"projection" json:"projection"`
	Pos          Pos        `yaml:"-" json:"-"`
}

// KeyAttrs is one or more key attributes; a file may give a single one
// as an object rather than a list (see the parser).
type KeyAttrs []KeyAttr

// Projection is what an index holds besides its keys and the table's.
type Projection struct {
	Type       string   `yaml:"type" json:"type"` // ALL, KEYS_ONLY or INCLUDE
	Attributes []string `yaml:"attributes,omitempty" json:"attributes,omitempty"`
	Pos        Pos      `yaml:"-" json:"-"`
}

// Entity is one kind of item the design stores.
type Entity struct {
	Name  string `yaml:"name" json:"name"`
	Table string `yaml:"table" json:"table"`
	// Description is free text for the generated document.
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	// Attributes are the entity's attributes with their DynamoDB types
	// (S, N, B, BOOL, NULL, M, L, SS, NS, BS), key attributes included.
	Attributes []Attribute `yaml:"attributes" json:"attributes"`
	// Discriminator is the attribute and value that say which entity an
	// item is (tp = "O"), where the design has one.
	Discriminator *Discriminator `yaml:"discriminator,omitempty" json:"discriminator,omitempty"`
	// Keys places the entity: for the table (keyed by the table's name)
	// and for every index it appears in (keyed by the index name), the
	// template of each key attribute, e.g. pk: "U#{userId}#O". An entity
	// absent from an index's entry is not in that (sparse) index.
	Keys map[string]KeyTemplates `yaml:"keys" json:"keys"`
	Pos  Pos                     `yaml:"-" json:"-"`
	// KeysPos is where each entry of Keys was written.
	KeysPos map[string]Pos `yaml:"-" json:"-"`
}

// KeyTemplates maps a key attribute's name to its template.
type KeyTemplates map[string]Template

// Attribute is one attribute of an entity.
type Attribute struct {
	Name string `yaml:"name" json:"name"`
	Type string `yaml:"type" json:"type"`
	// Required says every item of the entity has it.
	Required bool `yaml:"required,omitempty" json:"required,omitempty"`
	Pos      Pos  `yaml:"-" json:"-"`
}

// Discriminator is an attribute whose value names the entity.
type Discriminator struct {
	Attribute string `yaml:"attribute" json:"attribute"`
	Value     string `yaml:"value" json:"value"`
	Pos       Pos    `yaml:"-" json:"-"`
}

// Pattern is one access pattern: a read the application makes.
type Pattern struct {
	// Number is the design's own numbering ("1", "4a").
	Number string `yaml:"number" json:"number"`
	Name   string `yaml:"name" json:"name"`
	// Returns names the entities the pattern reads.
	Returns []string `yaml:"returns" json:"returns"`
	// Operation is GetItem, Query, Scan, BatchGetItem, TransactGetItems
	// or SearchVectors.
	Operation string `yaml:"operation" json:"operation"`
	Table     string `yaml:"table" json:"table"`
	Index     string `yaml:"index,omitempty" json:"index,omitempty"`
	// Key is the key condition: for each key attribute, an equality
	// with a template (pk: "U#{userId}#O") or a sort key condition
	// (sk: {op: begins_with, value: "O#"}). Empty for a Scan. For
	// SearchVectors, the search condition's equalities: the vector
	// index's hash and any of its filters.
	Key map[string]Condition `yaml:"key,omitempty" json:"key,omitempty"`
	// Filter is a filter expression, as the application sends it.
	Filter string `yaml:"filter,omitempty" json:"filter,omitempty"`
	// Attributes are the attributes the pattern reads (its projection);
	// empty means whole items.
	Attributes []string `yaml:"attributes,omitempty" json:"attributes,omitempty"`
	// Direction is "forward" (default) or "backward" (ScanIndexForward false).
	Direction string `yaml:"direction,omitempty" json:"direction,omitempty"`
	// PageSize is the Limit the application asks for, 0 for none.
	PageSize int `yaml:"pageSize,omitempty" json:"pageSize,omitempty"`
	// ExpectedItems is how many items a call returns, typically, for the
	// cost estimate; 0 means PageSize, or 1 for GetItem.
	ExpectedItems int `yaml:"expectedItems,omitempty" json:"expectedItems,omitempty"`
	// TopK is how many nearest items a SearchVectors pattern asks for
	// (1 to 100); 0 for other operations.
	TopK int `yaml:"topK,omitempty" json:"topK,omitempty"`
	Pos  Pos `yaml:"-" json:"-"`
	// KeyPos is where each entry of Key was written.
	KeyPos map[string]Pos `yaml:"-" json:"-"`
}

// Condition is one key attribute's part of a key condition.
type Condition struct {
	// Op is "=", "<", "<=", ">", ">=", "between" or "begins_with".
	Op string `yaml:"op" json:"op"`
	// Value is the template compared with; Value2 the upper bound of
	// between.
	Value  Template `yaml:"value" json:"value"`
	Value2 Template `yaml:"value2,omitempty" json:"value2,omitempty"`
}

// WritePattern is a write the design relies on to keep an invariant.
type WritePattern struct {
	Number string `yaml:"number" json:"number"`
	Name   string `yaml:"name" json:"name"`
	// Operation is PutItem, UpdateItem, DeleteItem, BatchWriteItem or
	// TransactWriteItems.
	Operation string `yaml:"operation" json:"operation"`
	// Entities are the entities written, in the order of the request.
	Entities []string `yaml:"entities" json:"entities"`
	// Condition is the condition expression that keeps the invariant,
	// e.g. attribute_not_exists(pk).
	Condition   string `yaml:"condition,omitempty" json:"condition,omitempty"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	Pos         Pos    `yaml:"-" json:"-"`
}
