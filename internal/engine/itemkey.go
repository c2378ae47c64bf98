package engine

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// DynamoDB's key size limits, in bytes of the key value.
const (
	maxHashKeyBytes  = 2048
	maxRangeKeyBytes = 1024
)

// itemKey is a primary key, encoded for storage.
type itemKey struct {
	storage []byte // the item's storage key
	hash    uint64 // selects the item's lock stripe
	// vectors are those checkPut read from the item it checked, which
	// the commit of that item reuses.
	vectors parsedVectors
}

var errKeySchema = apierr.Validationf("The provided key element does not match the schema")

// keyedTable resolves the table a GetItem, DeleteItem or UpdateItem names
// and checks its Key against the table's key schema.
func (e *Engine) keyedTable(name string, key attr.Item) (*table, itemKey, error) {
	t, err := e.itemTable(name)
	if err != nil {
		return nil, itemKey{}, err
	}
	k, err := t.keyFromKey(key)
	return t, k, err
}

// keyFromKey checks that a request's Key names exactly the table's key
// attributes with the right types, as GetItem and DeleteItem require.
func (t *table) keyFromKey(key attr.Item) (itemKey, error) {
	want := 1
	if t.key.rng.name != "" {
		want = 2
	}
	if len(key) != want {
		return itemKey{}, errKeySchema
	}
	for _, k := range []keyAttr{t.key.hash, t.key.rng} {
		if v, ok := key[k.name]; k.name != "" && (!ok || v.Kind() != k.kind) {
			return itemKey{}, errKeySchema
		}
	}
	return t.encodeKey(key)
}

// keyFromItem checks the key attributes of a whole item, as PutItem
// requires, with PutItem's messages.
func (t *table) keyFromItem(it attr.Item) (itemKey, error) {
	for _, k := range []keyAttr{t.key.hash, t.key.rng} {
		if k.name == "" {
			continue
		}
		v, ok := it[k.name]
		if !ok {
			return itemKey{}, apierr.Validationf("One or more parameter values were invalid: Missing the key %s in the item", k.name)
		}
		if v.Kind() != k.kind {
			return itemKey{}, apierr.Validationf("One or more parameter values were invalid: Type mismatch for key %s expected: %s actual: %s", k.name, k.kind, v.Kind())
		}
	}
	return t.encodeKey(it)
}

// encodeKey checks key values for emptiness and size, then encodes them.
// The key attributes are known to be present with the right types.
func (t *table) encodeKey(it attr.Item) (itemKey, error) {
	hv := it[t.key.hash.name]
	if err := checkKeyValue(t.key.hash.name, &hv, maxHashKeyBytes,
		"One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"); err != nil {
		return itemKey{}, err
	}
	pk := attr.AppendKey(nil, &hv)
	var sk []byte
	if t.key.rng.name != "" {
		rv := it[t.key.rng.name]
		if err := checkKeyValue(t.key.rng.name, &rv, maxRangeKeyBytes,
			"One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"); err != nil {
			return itemKey{}, err
		}
		sk = attr.AppendKey(nil, &rv)
	}
	prefix := storage.ItemPrefix(t.meta.ID, 0)
	k := storage.ItemKey(prefix, pk, sk)
	return itemKey{storage: k, hash: stripeOf(k)}, nil
}

func checkKeyValue(name string, v *attr.Value, limit int, tooBig string) error {
	if v.S != nil && *v.S == "" {
		return apierr.Validationf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: %s", name)
	}
	if v.B != nil && len(v.B) == 0 {
		return apierr.Validationf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: %s", name)
	}
	if v.Size() > limit {
		return apierr.Validationf("%s", tooBig)
	}
	return nil
}
