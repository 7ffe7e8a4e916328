package gen

import (
	"go/token"
	"strings"
	"testing"
)

// FuzzParamNames checks that paramNames turns any list of kernel
// parameter names (separated by commas) into distinct Go identifiers that
// are no keyword, predeclared identifier, reserved name or obsgen name.
func FuzzParamNames(f *testing.F) {
	for _, seed := range []string{"keys,lo,bins", "type,len,dev,cfg,lenArg", "obsgenX,runtime,launch", "a b,é,9,_,", "x,x,xArg"} {
		f.Add(seed)
	}
	reserved := setOf("dev cfg fault launch runtime ir math")
	f.Fuzz(func(t *testing.T, list string) {
		names := strings.Split(list, ",")
		if len(names) > 64 {
			return
		}
		got := paramNames(names, reserved)
		if len(got) != len(names) {
			t.Fatalf("%d names for %d parameters", len(got), len(names))
		}
		seen := map[string]bool{}
		for i, n := range got {
			switch {
			case !token.IsIdentifier(n):
				t.Errorf("parameter %q: %q is not an identifier", names[i], n)
			case predeclared[n] || reserved[n] || strings.HasPrefix(n, "obsgen"):
				t.Errorf("parameter %q: %q is predeclared, reserved or an obsgen name", names[i], n)
			case seen[n]:
				t.Errorf("parameter %q: %q taken twice", names[i], n)
			}
			seen[n] = true
		}
	})
}
