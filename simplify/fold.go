package simplify

import (
	"math"

	"github.com/obsidian-go/obsidian/ir"
)

// Constant folding with the semantics of the operator table (ir.Operation),
// which are CUDA's as the printer writes them. An operation is folded only
// when the GPU would compute the very same bits: it must be correctly
// rounded on the GPU (ir.Operation.Exact), must not fault (division by
// zero, INT_MIN / -1, a shift count outside [0, width): those are left to
// run time, and reported by Check), and must not give a NaN, whose bits
// the GPU chooses.

// foldOp applies o to constant operands; false when it must not be folded.
func foldOp(o *ir.Operation, args ...ir.Value) (ir.Value, bool) {
	if o == nil || len(args) == 0 || !o.Exact(args[0].T) {
		return ir.Value{}, false
	}
	v, f, ok := o.Apply(args...)
	if !ok || f != ir.NoFault || isNaN(v) {
		return ir.Value{}, false
	}
	return v, true
}

// foldConvert folds the conversion of the constant x to type to.
func foldConvert(to ir.Type, x ir.Value) (ir.Value, bool) {
	v, ok := x.Convert(to)
	if !ok || isNaN(v) {
		return ir.Value{}, false
	}
	return v, true
}

func isNaN(v ir.Value) bool { return v.T.IsFloat() && math.IsNaN(v.Float()) }
