package validate

import "github.com/sortkeydb/sortkey/internal/protocol"

// UpdateTimeToLive checks an UpdateTimeToLive request's model constraints;
// the rules that depend on the table's state are the engine's.
func UpdateTimeToLive(in *protocol.UpdateTimeToLiveInput) error {
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
