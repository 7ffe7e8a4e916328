package simplify_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// TestConstTableFolds checks that a constant table read at a constant
// index within it folds to the element, and that any other read stays a
// load: at an index past the end (which must fail when it runs), at an
// index not known, and of an array of another space.
func TestConstTableFolds(t *testing.T) {
	values := []ir.Value{ir.IntValue(ir.Int16, -7), ir.IntValue(ir.Int16, 300), ir.IntValue(ir.Int16, 5)}
	tab := &ir.Array{Name: "tab", Elem: ir.Int16, Space: ir.Constant, Access: ir.Input, Size: 3, Values: values}
	in := &ir.Array{Name: "in", Elem: ir.Int16, Space: ir.Global, Access: ir.Input}
	u32 := func(v uint64) ir.Expr { return &ir.Const{Value: ir.UintValue(ir.Uint32, v)} }
	index := &ir.Binary{Op: ir.Sub, X: u32(3), Y: u32(1)}
	got := simplify.Expr(&ir.Binary{Op: ir.Add, X: &ir.Load{Array: tab, Index: index}, Y: &ir.Load{Array: tab, Index: u32(1)}})
	if k, ok := got.(*ir.Const); !ok || k.Value != ir.IntValue(ir.Int16, 305) {
		t.Errorf("tab[3-1] + tab[1] simplifies to %#v, want the constant 305", got)
	}
	for name, e := range map[string]*ir.Load{
		"past the end":   {Array: tab, Index: u32(3)},
		"unknown index":  {Array: tab, Index: &ir.Var{Name: "i", T: ir.Uint32}},
		"a global array": {Array: in, Index: u32(0)},
		"a shared array": {Array: &ir.Array{Name: "sh", Elem: ir.Int16, Space: ir.Shared, Size: 3}, Index: u32(0)},
	} {
		if _, ok := simplify.Expr(e).(*ir.Load); !ok {
			t.Errorf("a read %s simplifies to %#v, want a load", name, simplify.Expr(e))
		}
	}
}
