package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Op is an associative operator: op(op(a, b), c) equals op(a, op(b, c)).
// It need not be commutative: the collectives combine elements in their
// order, op(earlier, later). Method expressions are operators:
// dsl.U32.Add, dsl.U32.Max, dsl.Exp[int64].Min, dsl.U32.Xor, ...
type Op[T dsl.Scalar] func(a, b dsl.Exp[T]) dsl.Exp[T]

// nilOp is what a collective given a nil operator reports.
const nilOp = "a nil operator (Op): give a function such as dsl.U32.Add"

// LanesBelow returns the number of lanes of the warp that runs index i
// whose indices are below n: the lanes holding an element of an array of n
// elements when lane l runs index i - LaneOf(i) + l, as in every ForAll.
func LanesBelow(n, i dsl.U32) dsl.U32 {
	first := i.Sub(dsl.LaneOf(i))
	return dsl.Select(first.Lt(n), n.Sub(first).Min(dsl.N(ir.WarpSize)), dsl.N(0))
}

// WarpScan returns, in lane l, the inclusive scan x_0 op x_1 op ... op x_l
// of the values x of the warp's lanes: five shuffles, Kogge and Stone's
// scan.
//
// Like WarpScanExclusive and WarpReduce, it runs in the Thread body of a
// ForAll that runs every lane of each warp (a Warp.ForAll of ir.WarpSize
// lanes, or a Block.ForAll over the block's threads), outside any condition
// that may differ between the lanes of a warp: every lane calls it, with
// one value. Only the lanes below valid (a count, the same in every lane
// of the warp; ir.WarpSize or more for all) hold values: the others still
// take part in the shuffles, but their values are never combined, so they
// may hold anything, and what they get back is unspecified. LanesBelow
// gives valid for a ForAll over an array.
func WarpScan[T dsl.Number](t *dsl.Thread, op Op[T], x dsl.Exp[T], valid dsl.U32) dsl.Exp[T] {
	return laneScan("WarpScan", t, op, x, valid)
}

// laneScan is WarpScan, called by what.
func laneScan[T dsl.Number](what string, t *dsl.Thread, op Op[T], x dsl.Exp[T], valid dsl.U32) dsl.Exp[T] {
	if op == nil {
		return dsl.Let(t, dsl.Invalid[T](what+" of "+nilOp)).Exp
	}
	v := dsl.Let(t, x)
	lane := dsl.LaneIdx
	holds := dsl.Let(t, lane.Lt(valid))
	for d := uint32(1); d < ir.WarpSize; d *= 2 {
		below := dsl.Shuffle(t, dsl.ShuffleUp, v.Exp, dsl.N(d))
		// A lane that holds a value and has one d lanes below combines
		// them; the lane below holds one too, as valid lanes come first.
		t.If(holds.And(lane.Ge(dsl.N(d))), func(t *dsl.Thread) { v.Set(op(below, v.Exp)) })
	}
	return v.Exp
}

// WarpScanExclusive returns, in lane l, identity op x_0 op ... op x_(l-1):
// identity in lane 0 (see WarpScan for where it runs and valid). identity must be op's identity (op(identity, x) = x:
// 0 for Add and Xor, the type's smallest value for Max, ...).
func WarpScanExclusive[T dsl.Number](t *dsl.Thread, op Op[T], identity, x dsl.Exp[T], valid dsl.U32) dsl.Exp[T] {
	inclusive := laneScan("WarpScanExclusive", t, op, x, valid)
	below := dsl.Shuffle(t, dsl.ShuffleUp, inclusive, dsl.N(1))
	return dsl.Let(t, dsl.Select(dsl.LaneIdx.Eq(dsl.N(0)), identity, below)).Exp
}

// WarpReduce returns, in every lane, x_0 op x_1 op ... op x_(valid-1): the
// warp's total, the same in all its lanes (see WarpScan for where it runs).
// valid must be at least 1.
func WarpReduce[T dsl.Number](t *dsl.Thread, op Op[T], x dsl.Exp[T], valid dsl.U32) dsl.Exp[T] {
	inclusive := laneScan("WarpReduce", t, op, x, valid)
	last := valid.Min(dsl.N(ir.WarpSize)).Max(dsl.N(1)).Sub(dsl.N(1))
	return dsl.Shuffle(t, dsl.ShuffleIdx, inclusive, last)
}
