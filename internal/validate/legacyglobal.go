package validate

// GlobalTableName checks the GlobalTableName of a legacy global tables
// request: present, and a table name.
func GlobalTableName(name *string) error {
	v := &violations{}
	if v.present(name == nil, "globalTableName") {
		v.name(*name, "globalTableName")
	}
	return v.err()
}

// ListLimit checks ListGlobalTables' Limit: at least 1.
func ListLimit(limit *int64) error {
	v := &violations{}
	v.atLeast(limit, "limit", 1)
	return v.err()
}
