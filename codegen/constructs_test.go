package codegen

import (
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/ir"
)

// constructKernels are hand-built kernels that, together, use every
// construct the printer has: every atomic operation on every type CUDA has
// it for, every shuffle mode on every numeric type, ballot, every ForAll
// kind and printing, loops, selects, conversions between all types, every
// operator and awkward constants.
func constructKernels() []*ir.Kernel {
	ks := []*ir.Kernel{forAllKernel(), unrolledKernel(), loopKernel(), warpKernel(), deepKernel(300), alignedKernel(),
		asyncCopyKernel()}
	for _, t := range ir.Types {
		ks = append(ks, tableKernel(t))
		if t.Size() >= 4 && t != ir.Bool {
			ks = append(ks, atomicKernel(t))
		}
		if ir.AtomicSupported(ir.AtomicLoad, t) {
			ks = append(ks, orderedKernel(t))
		}
		if t.IsNumeric() {
			ks = append(ks, shuffleKernel(t))
		}
		if t.IsStorageFloat() {
			ks = append(ks, storageKernel(t))
			continue
		}
		ks = append(ks, operatorKernel(t))
		if t.IsFloat() {
			ks = append(ks, conversionKernel(t))
		}
	}
	return ks
}

// conversionKernel converts a float of type from to every integer type, as
// the saturating helpers print it.
func conversionKernel(from ir.Type) *ir.Kernel {
	in := global("in", from, ir.Input, 2)
	i := v("i", ir.Uint32)
	var arrays []*ir.Array
	stmts := []ir.Stmt{}
	for _, to := range ir.Types {
		if !to.IsInteger() {
			continue
		}
		out := global("out_"+to.String(), to, ir.Output, 3)
		arrays = append(arrays, out)
		stmts = append(stmts, store(out, i, &ir.Convert{To: to, X: load(in, i, 11)}, 12))
	}
	return kernel("convert_"+from.String(), append([]*ir.Array{in}, arrays...), nil,
		forAll(ir.GridThreads, i, &ir.Len{Array: in}, 10, stmts...))
}

// storageKernel reads a 16-bit float storage type, computes in float32 and
// writes the result back.
func storageKernel(t ir.Type) *ir.Kernel {
	in, out := global("in", t, ir.Input, 2), global("out", t, ir.Output, 3)
	i, x := v("i", ir.Uint32), v("x", ir.Float32)
	return kernel("storage_"+t.String(), []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: in}, 10,
		decl(x, &ir.Convert{To: ir.Float32, X: load(in, i, 11)}, 11),
		store(out, i, &ir.Convert{To: t, X: bin(ir.Mul, x, val(ir.FloatValue(ir.Float32, 1.5)))}, 12),
		store(out, bin(ir.Xor, i, u32(1)), val(ir.FloatValue(t, -2.5)), 13)))
}

// atomicKernel applies every atomic CUDA has for t, to a global and to a
// shared array, with and without a result.
func atomicKernel(t ir.Type) *ir.Kernel {
	g := global("g", t, ir.ReadWrite, 2)
	s := shared("s", t, 64, 3)
	i, r := v("i", ir.Uint32), v("r", t)
	x := val(ir.UintValue(t, 3))
	if t.IsFloat() {
		x = val(ir.FloatValue(t, 1.5))
	}
	body := []ir.Stmt{decl(r, x, 11)}
	for op := ir.AtomicAdd; op <= ir.AtomicCAS; op++ {
		if !ir.AtomicSupported(op, t) {
			continue
		}
		for _, a := range []*ir.Array{g, s} {
			idx := ir.Expr(bin(ir.And, bin(ir.Add, i, u32(1)), u32(63)))
			withResult := &ir.Atomic{Op: op, Array: a, Index: idx, Value: x, Result: r, Pos: at(12)}
			plain := &ir.Atomic{Op: op, Array: a, Index: i, Value: r, Pos: at(13)}
			if op == ir.AtomicCAS {
				withResult.Compare, plain.Compare = r, x
			}
			body = append(body, withResult, plain)
		}
	}
	return kernel("atomic_"+t.String(), []*ir.Array{g}, []*ir.Array{s},
		blocks(2, 9, forAll(ir.BlockThreads, i, u32(64), 10, body...)))
}

// orderedKernel makes atomic loads and stores of t in every ordering they
// take, on global and shared arrays, with a fence between them.
func orderedKernel(t ir.Type) *ir.Kernel {
	g := global("g", t, ir.ReadWrite, 2)
	s := shared("s", t, 64, 3)
	i, r := v("i", ir.Uint32), v("r", t)
	body := []ir.Stmt{decl(r, val(ir.Value{T: t}), 11)}
	for _, a := range []*ir.Array{g, s} {
		for o := ir.Relaxed; o <= ir.Release; o++ {
			if ir.OrderAllowed(ir.AtomicLoad, o) {
				body = append(body, &ir.Atomic{Op: ir.AtomicLoad, Order: o, Array: a, Index: i, Result: r, Pos: at(12)})
			}
			body = append(body, &ir.Fence{Pos: at(13)}, &ir.Sleep{Nanos: 100, Pos: at(13)})
			if ir.OrderAllowed(ir.AtomicStore, o) {
				body = append(body, &ir.Atomic{Op: ir.AtomicStore, Order: o, Array: a,
					Index: bin(ir.And, bin(ir.Add, i, u32(1)), u32(63)), Value: r, Pos: at(14)})
			}
		}
	}
	return kernel("ordered_"+t.String(), []*ir.Array{g}, []*ir.Array{s},
		blocks(2, 9, forAll(ir.BlockThreads, i, u32(64), 10, body...)))
}

// shuffleKernel shuffles a t value in every mode, takes ballots and
// agrees of x > 0 and x != 0 and,
// where t is 32 or 64 bits wide, matches it.
func shuffleKernel(t ir.Type) *ir.Kernel {
	in, out := global("in", t, ir.Input, 2), global("out", t, ir.Output, 3)
	mask := global("mask", ir.Uint32, ir.Output, 4)
	i, x, m := v("i", ir.Uint32), v("x", t), v("m", ir.Uint32)
	body := []ir.Stmt{decl(x, load(in, i, 11), 11), decl(m, u32(0), 11)}
	for mode := ir.ShuffleIdx; mode <= ir.ShuffleXor; mode++ {
		body = append(body, &ir.Shuffle{Mode: mode, Result: x, Value: x, Lane: u32(uint64(mode)), Pos: at(12)})
	}
	zero := val(ir.Value{T: t})
	body = append(body,
		&ir.Ballot{Result: m, Pred: bin(ir.Gt, x, zero), Pos: at(13)},
		&ir.Ballot{Result: m, Pred: bin(ir.Ne, x, zero), Pos: at(13)},
		&ir.Ballot{Result: m, Pred: bin(ir.Gt, x, zero), Agree: true, Pos: at(13)},
		&ir.Ballot{Result: m, Pred: bin(ir.Ne, x, zero), Agree: true, Pos: at(13)})
	if ir.Matchable(t) {
		body = append(body, &ir.MatchAny{Result: m, Value: x, Pos: at(13)})
	}
	body = append(body, store(out, i, x, 14), store(mask, i, m, 15))
	return kernel("shuffle_"+t.String(), []*ir.Array{in, out, mask}, nil,
		blocks(2, 9, forAll(ir.BlockThreads, i, u32(256), 10, body...)))
}

// operatorKernel applies every operator defined on t and converts a t to
// every type.
func operatorKernel(t ir.Type) *ir.Kernel {
	in := global("in", t, ir.Input, 2)
	var params []*ir.Array
	params = append(params, in)
	i, x, y := v("i", ir.Uint32), v("x", t), v("y", t)
	body := []ir.Stmt{decl(x, load(in, i, 11), 11), decl(y, load(in, bin(ir.Xor, i, u32(1)), 12), 12)}
	// every operation of the table on t, its result converted back to t
	apply := func(o *ir.Operation, e ir.Expr) {
		if o.FaultsFor(t) == ir.CountFault {
			b := e.(*ir.Binary)
			b.Y = bin(ir.And, b.Y, val(ir.UintValue(t, uint64(t.Bits()-1))))
		}
		if e.Type() != t {
			e = &ir.Convert{To: t, X: e}
		}
		body = append(body, &ir.Assign{Var: x, Value: e, Pos: at(13)})
	}
	for _, op := range ir.UnOps() {
		if o := op.Operation(); o.Types.Has(t) {
			apply(o, &ir.Unary{Op: op, X: x})
		}
	}
	for _, op := range ir.BinOps() {
		if o := op.Operation(); o.Types.Has(t) {
			apply(o, bin(op, x, y))
		}
	}
	for _, op := range ir.TernOps() {
		if o := op.Operation(); o.Types.Has(t) {
			apply(o, &ir.Ternary{Op: op, X: x, Y: y, Z: x})
		}
	}
	for _, c := range awkwardConstants(t) {
		body = append(body, &ir.Assign{Var: y, Value: bin(ir.Eq, y, val(c)), Pos: at(15)})
		if t == ir.Bool {
			continue
		}
		body[len(body)-1] = &ir.Assign{Var: y, Value: &ir.Select{Cond: bin(ir.Eq, y, val(c)), Then: val(c), Else: x}, Pos: at(15)}
	}
	for _, to := range ir.Types {
		if !ir.ConversionDefined(t, to) {
			continue
		}
		out := global("out_"+to.String(), to, ir.Output, 3)
		params = append(params, out)
		body = append(body, store(out, i, &ir.Convert{To: to, X: bin(ir.Or, x, y)}, 16))
		if !operatorApplies(ir.Or, t) {
			body[len(body)-1] = store(out, i, &ir.Convert{To: to, X: &ir.Select{Cond: bin(ir.Lt, x, y), Then: x, Else: y}}, 16)
		}
	}
	return kernel("operators_"+t.String(), params, nil, forAll(ir.GridThreads, i, &ir.Len{Array: in}, 10, body...))
}

// operatorApplies reports whether verify accepts op on t.
func operatorApplies(op ir.BinOp, t ir.Type) bool { return op.Operation().Types.Has(t) }

// awkwardConstants are the constants of t whose printing is not obvious.
func awkwardConstants(t ir.Type) []ir.Value {
	switch t {
	case ir.Bool:
		return []ir.Value{ir.BoolValue(true), ir.BoolValue(false)}
	case ir.Int32:
		return []ir.Value{ir.IntValue(t, math.MinInt32), ir.IntValue(t, math.MaxInt32), ir.IntValue(t, -3)}
	case ir.Int64:
		return []ir.Value{ir.IntValue(t, math.MinInt64), ir.IntValue(t, math.MaxInt64), ir.IntValue(t, -3)}
	case ir.Uint32, ir.Uint64, ir.Uint8, ir.Uint16:
		return []ir.Value{ir.UintValue(t, math.MaxUint64), ir.UintValue(t, 5)}
	case ir.Int8, ir.Int16:
		return []ir.Value{ir.IntValue(t, -1<<(t.Bits()-1)), ir.IntValue(t, 1<<(t.Bits()-1)-1), ir.IntValue(t, -3)}
	}
	var vs []ir.Value
	for _, f := range []float64{0.1, 1, math.Copysign(0, -1), 1e-45, 3.4028234663852886e38, 1e300, math.Inf(1), math.Inf(-1), 5e-324} {
		vs = append(vs, ir.FloatValue(t, f))
	}
	return append(vs, ir.Value{T: t, Bits: math.Float64bits(math.NaN()) >> (64 - t.Bits())})
}

// forAllKernel has every ForAll kind with counts below, at and above the
// hardware size, constant and not.
func forAllKernel() *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output, 2)
	n := v("n", ir.Uint32)
	var body []ir.Stmt
	idx := 0
	name := func(p string) *ir.Var { idx++; return v(fmt.Sprintf("%s%d", p, idx), ir.Uint32) }
	for _, c := range []ir.Expr{u32(256), u32(100), u32(1000), n, bin(ir.Mul, n, u32(3))} {
		i := name("i")
		body = append(body, forAll(ir.BlockThreads, i, c, 10, store(out, i, i, 11)), sync(12))
	}
	for _, c := range []ir.Expr{u32(8), u32(3), u32(20), n} {
		w := name("w")
		l := name("l")
		body = append(body, forAll(ir.BlockWarps, w, c, 13,
			forAll(ir.WarpLanes, l, u32(32), 14, store(out, bin(ir.Add, bin(ir.Mul, w, u32(32)), l), l, 14)),
			&ir.Sync{Level: ir.WarpLevel, Pos: at(15)},
			forAll(ir.WarpLanes, l2(idx), u32(16), 16, store(out, w, w, 16))))
	}
	g := name("g")
	k := kernel("forall_kinds", []*ir.Array{out}, []*ir.Array{shared("tile", ir.Float64, 10, 3)},
		blocks(8, 9, body...),
		forAll(ir.GridThreads, g, bin(ir.Add, n, u32(1)), 20, store(out, g, bin(ir.Sub, n, g), 21)))
	k.Params = append(k.Params, ir.Param{Scalar: n})
	k.Blocks = bin(ir.Div, &ir.Len{Array: out}, u32(256))
	return k
}

// asyncCopyKernel copies 4- and 8-byte elements into shared memory
// asynchronously, and reads them back after the barrier.
func asyncCopyKernel() *ir.Kernel {
	in32, in64 := global("in32", ir.Uint32, ir.Input, 2), global("in64", ir.Float64, ir.Input, 3)
	out32, out64 := global("out32", ir.Uint32, ir.Output, 4), global("out64", ir.Float64, ir.Output, 5)
	tile32, tile64 := shared("tile32", ir.Uint32, 256, 6), shared("tile64", ir.Float64, 256, 7)
	i, j := v("i", ir.Uint32), v("j", ir.Uint32)
	copy32, copy64 := store(tile32, bin(ir.Sub, u32(255), i), load(in32, i, 9), 9), store(tile64, i, load(in64, i, 10), 10)
	copy32.Async, copy64.Async = true, true
	return kernel("async_copy", []*ir.Array{in32, in64, out32, out64}, []*ir.Array{tile32, tile64},
		blocks(8, 8,
			forAll(ir.BlockThreads, i, u32(256), 9, copy32, copy64),
			sync(11),
			forAll(ir.BlockThreads, j, u32(256), 12, store(out32, j, load(tile32, j, 12), 12),
				store(out64, j, load(tile64, j, 13), 13))))
}

func l2(i int) *ir.Var { return v(fmt.Sprintf("m%d", i), ir.Uint32) }

// unrolledKernel has ForAlls asking to be unrolled: block-level ones over
// a count of the block (no loop), a constant multiple of it, a constant
// that is not, and a count known at run time; one that leaves it to the
// compiler; and a grid-level one.
func unrolledKernel() *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output, 2)
	n := v("n", ir.Uint32)
	var body []ir.Stmt
	for j, c := range []struct {
		count  ir.Expr
		unroll int
	}{{u32(256), 4}, {u32(1024), 4}, {u32(1000), 2}, {n, 3}, {u32(2048), 0}} {
		i := v(fmt.Sprintf("i%d", j), ir.Uint32)
		f := forAll(ir.BlockThreads, i, c.count, 10+j, store(out, i, bin(ir.Mul, i, u32(3)), 10+j))
		f.Unroll = c.unroll
		body = append(body, f)
	}
	g := v("g", ir.Uint32)
	grid := forAll(ir.GridThreads, g, n, 20, store(out, g, g, 21))
	grid.Unroll = 2
	k := kernel("unrolled", []*ir.Array{out}, nil, blocks(8, 9, body...), grid)
	k.Params = append(k.Params, ir.Param{Scalar: n})
	k.Blocks = bin(ir.Div, &ir.Len{Array: out}, u32(256))
	return k
}

// loopKernel has For, While, if-else chains and repeated subexpressions.
func loopKernel() *ir.Kernel {
	in, out := global("in", ir.Int32, ir.Input, 2), global("out", ir.Int32, ir.Output, 3)
	i, j, acc, k64 := v("i", ir.Uint32), v("j", ir.Int32), v("acc", ir.Int32), v("k64", ir.Uint64)
	idx := bin(ir.Add, i, u32(1))
	twice := bin(ir.Mul, load(in, idx, 12), load(in, idx, 12))
	guarded := &ir.Select{Cond: bin(ir.Gt, i, u32(0)),
		Then: load(in, bin(ir.Sub, i, u32(1)), 13), Else: i32(0)}
	body := []ir.Stmt{
		decl(acc, bin(ir.Add, twice, guarded), 12),
		&ir.For{Var: j, Count: &ir.Convert{To: ir.Int32, X: bin(ir.And, i, u32(7))}, Pos: at(14), Body: []ir.Stmt{
			&ir.Assign{Var: acc, Value: bin(ir.Add, acc, bin(ir.Mul, j, j)), Pos: at(15)},
		}},
		decl(k64, &ir.Convert{To: ir.Uint64, X: acc}, 16),
		&ir.For{Var: v("z", ir.Uint64), Count: &ir.Convert{To: ir.Uint64, X: i}, Pos: at(16)},
		&ir.While{Cond: bin(ir.Gt, acc, i32(100)), Pos: at(17), Body: []ir.Stmt{
			&ir.Assign{Var: acc, Value: bin(ir.Shr, acc, i32(1)), Pos: at(18)},
		}},
		&ir.If{Cond: bin(ir.Lt, acc, i32(0)), Pos: at(19),
			Then: []ir.Stmt{&ir.Assign{Var: acc, Value: &ir.Unary{Op: ir.Neg, X: acc}, Pos: at(20)}},
			Else: []ir.Stmt{&ir.If{Cond: bin(ir.Eq, acc, i32(0)), Pos: at(21),
				Then: []ir.Stmt{&ir.Assign{Var: acc, Value: i32(1), Pos: at(22)}},
				Else: []ir.Stmt{&ir.Assign{Var: acc, Value: bin(ir.Sub, acc, i32(-3)), Pos: at(23)}},
			}},
		},
		store(out, bin(ir.Mul, i, u32(2)), bin(ir.Add, acc, &ir.Convert{To: ir.Int32, X: k64}), 24),
	}
	return kernel("loops", []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: out}, 10, body...))
}

// warpKernel reduces within warps with shuffles in a WarpLanes ForAll.
func warpKernel() *ir.Kernel {
	in, out := global("in", ir.Float32, ir.Input, 2), global("out", ir.Float32, ir.Output, 3)
	w, l, x, d := v("w", ir.Uint32), v("l", ir.Uint32), v("x", ir.Float32), v("d", ir.Uint32)
	y := v("y", ir.Float32)
	return kernel("warp_sum", []*ir.Array{in, out}, nil, blocks(16, 9,
		forAll(ir.BlockWarps, w, u32(8), 10,
			forAll(ir.WarpLanes, l, u32(32), 11,
				decl(x, load(in, bin(ir.Add, bin(ir.Mul, w, u32(32)), l), 12), 12),
				decl(y, x, 12),
				&ir.For{Var: d, Count: u32(5), Pos: at(13), Body: []ir.Stmt{
					&ir.Shuffle{Mode: ir.ShuffleXor, Result: y, Value: x,
						Lane: bin(ir.Shl, u32(1), d), Pos: at(14)},
					&ir.Assign{Var: x, Value: bin(ir.Add, x, y), Pos: at(15)},
				}},
				store(out, w, x, 16)))))
}
