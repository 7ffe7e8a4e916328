package eval

import (
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// TestExprTaintSeesEveryOperand: an expression takes the thread dependence
// of each of its operands, whatever its kind; one of an unknown kind
// depends on every thread index.
func TestExprTaintSeesEveryOperand(t *testing.T) {
	c := &compiler{taint: map[*ir.Var]taint{}}
	lane := &ir.Special{Kind: ir.ThreadIdx}
	one := &ir.Const{Value: ir.UintValue(ir.Uint32, 1)}
	for name, c2 := range map[string]struct {
		e    ir.Expr
		want taint
	}{
		"constant":                 {one, 0},
		"ternary on the thread":    {&ir.Ternary{Op: ir.FunnelShiftL, X: one, Y: one, Z: lane}, laneDependent},
		"ternary on constants":     {&ir.Ternary{Op: ir.FunnelShiftL, X: one, Y: one, Z: one}, 0},
		"binary on the thread":     {&ir.Binary{Op: ir.Add, X: one, Y: lane}, laneDependent},
		"an unknown kind (nil)":    {nil, laneDependent | warpDependent},
		"select on the warp index": {&ir.Select{Cond: &ir.Binary{Op: ir.Eq, X: &ir.Special{Kind: ir.WarpIdx}, Y: one}, Then: one, Else: one}, warpDependent},
	} {
		if got := c.exprTaint(c2.e); got != c2.want {
			t.Errorf("%s: taint %b, want %b", name, got, c2.want)
		}
	}
}
