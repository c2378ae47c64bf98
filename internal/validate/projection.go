package validate

import "github.com/sortkeydb/sortkey/internal/apierr"

// msgDuplicateNonKey is DynamoDB's text for an attribute listed twice in a
// projection's NonKeyAttributes.
const msgDuplicateNonKey = "Cannot have two attributes with the same name"

// uniqueNonKeyAttributes refuses a projection that lists an attribute
// twice. It is apart from the rest of the index checks so that CreateTable
// and UpdateTable share it unchanged.
func uniqueNonKeyAttributes(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return apierr.Validationf(msgDuplicateNonKey)
		}
		seen[n] = true
	}
	return nil
}
