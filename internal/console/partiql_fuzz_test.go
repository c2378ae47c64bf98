package console

import "testing"

// FuzzExecuteInput: any statement, parameters and limit as typed give an
// input or an error, never a panic, and a refused form sends nothing.
func FuzzExecuteInput(f *testing.F) {
	f.Add(`SELECT * FROM "T" WHERE PK = ?`, `[{"S": "a"}]`, "10")
	f.Add("x", `[{"S": "a", "N": "1"}]`, "0")
	f.Add("x", `{"S": "a"} trailing`, "abc")
	f.Fuzz(func(t *testing.T, statement, params, limit string) {
		in, err := executeInput(statement, params, "")
		if err == nil {
			for _, v := range in.Parameters {
				if len(v) != 1 {
					t.Fatalf("parameter %v accepted with %d types", v, len(v))
				}
			}
			_ = executeCLI("http://localhost:8000", in)
		}
		if n, err := statementLimit(limit); err == nil && (n < 0 || n > maxLimit) {
			t.Fatalf("limit %q accepted as %d", limit, n)
		}
	})
}
