package validate

import "github.com/sortkeydb/sortkey/internal/protocol"

// UpdateTimeToLive checks an UpdateTimeToLive request: a missing
// TableName, then its model constraints, all together; the table lookup
// and the rules that depend on the table's state are the engine's.
func UpdateTimeToLive(in *protocol.UpdateTimeToLiveInput) error {
	if err := requireTableName(in.TableName); err != nil {
		return err
	}
	var v violations
	tableNameModel(&v, in.TableName, "tableName")
	if s := in.TimeToLiveSpecification; v.present(s == nil, "timeToLiveSpecification") {
		v.present(s.Enabled == nil, "timeToLiveSpecification.enabled")
		if v.present(s.AttributeName == nil, "timeToLiveSpecification.attributeName") {
			v.length(*s.AttributeName, "timeToLiveSpecification.attributeName", 1, 255)
		}
	}
	return v.err()
}
