package validate

import "github.com/sortkeydb/sortkey/internal/apierr"

// msgDuplicateNonKey is the text for an attribute listed twice in a
// projection's NonKeyAttributes. AWS pins only the word "Duplicate" (facts
// 19.3); the rest follows its "Duplicate AttributeName in
// AttributeDefinitions" wording.
const msgDuplicateNonKey = invalid + "Duplicate NonKeyAttributes in Projection: %s"

// uniqueNonKeyAttributes refuses a projection that lists an attribute
// twice. It is apart from the rest of the index checks so that CreateTable
// and UpdateTable share it unchanged.
func uniqueNonKeyAttributes(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return apierr.Validationf(msgDuplicateNonKey, n)
		}
		seen[n] = true
	}
	return nil
}
