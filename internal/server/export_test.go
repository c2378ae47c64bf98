package server

import "reflect"

// OperationInputs lists the wire input struct of every operation served,
// DynamoDB's and DynamoDB Streams', for the member-coverage tests. The op
// tables are built without an engine: only their input types are read.
func OperationInputs() (dynamo, streams map[string]reflect.Type) {
	return inputTypes(operations(nil, nil, nil)), inputTypes(streamOperations(nil))
}

func inputTypes(ops map[string]operation) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for name, o := range ops {
		m[name] = o.input
	}
	return m
}
