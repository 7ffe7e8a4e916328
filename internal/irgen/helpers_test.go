package irgen_test

import (
	"math"
	"testing"

	"github.com/leanovate/gopter"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// properties returns gopter properties with the seed handling of proptest
// and cases successful cases (more under -long).
func properties(t *testing.T, cases int) *gopter.Properties {
	return gopter.NewProperties(proptest.Parameters(t, cases))
}

// sameValue reports whether a and b are the same value: the same type and
// bits, any two NaNs of a type being the same.
func sameValue(a, b ir.Value) bool {
	if a.T == b.T && a.T.IsFloat() && math.IsNaN(a.Float()) && math.IsNaN(b.Float()) {
		return true
	}
	return a == b
}

// size returns the number of nodes of e.
func size(e ir.Expr) int {
	n := 0
	ir.WalkExpr(e, func(ir.Expr) { n++ })
	return n
}
