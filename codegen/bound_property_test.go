package codegen

import (
	"math/rand/v2"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// boundCase is a random uint32 expression over free variables (any value),
// constant variables (declared once with an expression) and a variable
// declared with a small constant but assigned any value later, with the
// values the variables hold.
type boundCase struct {
	e        ir.Expr
	body     []ir.Stmt // the declarations
	assigned map[*ir.Var]bool
	values   map[*ir.Var]uint32
}

// newBoundCase draws a case from r.
func newBoundCase(r *rand.Rand) boundCase {
	c := boundCase{assigned: map[*ir.Var]bool{}, values: map[*ir.Var]uint32{}}
	anyValue := func() uint32 {
		if r.IntN(3) == 0 {
			return ^uint32(0) - r.Uint32N(300) // near 2^32
		}
		return r.Uint32()
	}
	var vars []*ir.Var
	for i := range 2 { // free variables
		x := v("free"+string(rune('a'+i)), ir.Uint32)
		c.values[x] = anyValue()
		vars = append(vars, x)
	}
	later := v("later", ir.Uint32) // declared with 7, assigned any value after
	c.body = append(c.body, &ir.Decl{Var: later, Init: u32(7)})
	c.assigned[later] = true
	c.values[later] = anyValue()
	vars = append(vars, later)
	var expr func(depth int) ir.Expr
	expr = func(depth int) ir.Expr {
		if depth == 0 || r.IntN(4) == 0 {
			if r.IntN(2) == 0 {
				return u32(uint64(anyValue()))
			}
			return vars[r.IntN(len(vars))]
		}
		ops := []ir.BinOp{ir.Min, ir.And, ir.Max, ir.Add, ir.Sub, ir.Or}
		return bin(ops[r.IntN(len(ops))], expr(depth-1), expr(depth-1))
	}
	for i := range 3 { // constant variables, each declared with an expression
		x := v("let"+string(rune('a'+i)), ir.Uint32)
		init := expr(3)
		c.body = append(c.body, &ir.Decl{Var: x, Init: init})
		c.values[x] = c.eval(init)
		vars = append(vars, x)
	}
	c.e = expr(5)
	return c
}

// eval returns e's value for the case's variables, with Go's uint32
// arithmetic.
func (c boundCase) eval(e ir.Expr) uint32 {
	switch e := e.(type) {
	case *ir.Const:
		return uint32(e.Value.Bits)
	case *ir.Var:
		return c.values[e]
	case *ir.Binary:
		x, y := c.eval(e.X), c.eval(e.Y)
		switch e.Op {
		case ir.Min:
			return min(x, y)
		case ir.Max:
			return max(x, y)
		case ir.And:
			return x & y
		case ir.Or:
			return x | y
		case ir.Add:
			return x + y
		case ir.Sub:
			return x - y
		}
	}
	panic("boundCase.eval: unknown expression")
}

// TestUpperBoundIsSound checks that a bound the loop-counter analysis
// finds for a random expression is never below its value, whatever the
// free and later-assigned variables hold; a wrong bound would give a loop
// a 32-bit counter that wraps.
func TestUpperBoundIsSound(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 2000))
	props.Property("value <= upper bound", prop.ForAll(func(seed uint64) bool {
		c := newBoundCase(rand.New(rand.NewPCG(seed, 7)))
		most, ok := newBounds(c.body, c.assigned).upper(c.e, 0)
		if !ok {
			return true
		}
		if got := c.eval(c.e); uint64(got) > most {
			t.Logf("seed %d: %s = %d above its bound %d", seed, expr(c.e), got, most)
			return false
		}
		return true
	}, gen.UInt64()))
	props.TestingRun(t)
}
