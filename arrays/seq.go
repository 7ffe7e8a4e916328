package arrays

import "github.com/obsidian-go/obsidian/dsl"

// SeqScan returns the inclusive scan of a under op, a_0 op a_1 op ... op
// a_i at index i, computed sequentially by one thread (Obsidian's
// seqScan): a Push array at Thread level, written from left to right. op
// need not be associative: it is applied in order, op(acc, a_i). Each
// element is read before its result is written, so writing into the array
// a reads is allowed.
func SeqScan[T dsl.Scalar](op Op[T], a Pull[T]) Push[*dsl.Thread, T] {
	if op == nil {
		return invalidPush[T]("SeqScan of " + nilOp)
	}
	step := func(acc, x dsl.Exp[T]) (dsl.Exp[T], dsl.Exp[T]) {
		next := op(acc, x)
		return next, next
	}
	return Push[*dsl.Thread, T]{n: a.n, run: func(t *dsl.Thread, w Writer[T]) {
		t.If(a.n.Gt(dsl.N(0)), func(t *dsl.Thread) {
			first := dsl.Let(t, a.At(dsl.N(0)))
			w(t, dsl.N(0), first.Exp)
			mapAccum(t, step, first.Exp, Drop(dsl.N(1), a), func(t *dsl.Thread, i dsl.U32, v dsl.Exp[T]) {
				w(t, i.Add(dsl.N(1)), v)
			})
		})
	}}
}

// SeqScanExclusive returns the exclusive scan of a under op from identity,
// identity op a_0 op ... op a_(i-1) at index i, as SeqScan does the
// inclusive one (Obsidian's seqScanCin, shifted by one). identity is the
// first element and the starting accumulator: op's identity for a scan in
// the usual sense, or any carry-in.
func SeqScanExclusive[T dsl.Scalar](op Op[T], identity dsl.Exp[T], a Pull[T]) Push[*dsl.Thread, T] {
	if op == nil {
		return invalidPush[T]("SeqScanExclusive of " + nilOp)
	}
	step := func(acc, x dsl.Exp[T]) (dsl.Exp[T], dsl.Exp[T]) { return op(acc, x), acc }
	return Push[*dsl.Thread, T]{n: a.n, run: func(t *dsl.Thread, w Writer[T]) {
		mapAccum(t, step, identity, a, w)
	}}
}

// MapAccum threads an accumulator through a from left to right in the
// thread t (Haskell's mapAccumL, Obsidian's mapAccumL): starting from
// init, step i computes f(acc, a_i) = (next accumulator, output i), and
// writes output i through w. It returns the final accumulator (init for
// an empty array). Element i is read before output i is written, so w may
// write into the array a reads.
func MapAccum[Acc, A, B dsl.Scalar](t *dsl.Thread, f func(acc dsl.Exp[Acc], x dsl.Exp[A]) (dsl.Exp[Acc], dsl.Exp[B]),
	init dsl.Exp[Acc], a Pull[A], w Writer[B]) dsl.Exp[Acc] {
	switch {
	case f == nil:
		return dsl.Let(t, dsl.Invalid[Acc]("MapAccum with a nil function")).Exp
	case w == nil:
		return dsl.Let(t, dsl.Invalid[Acc]("MapAccum with a nil Writer")).Exp
	}
	return mapAccum(t, f, init, a, w)
}

// mapAccum is MapAccum for f and w known not to be nil.
func mapAccum[Acc, A, B dsl.Scalar](t *dsl.Thread, f func(acc dsl.Exp[Acc], x dsl.Exp[A]) (dsl.Exp[Acc], dsl.Exp[B]),
	init dsl.Exp[Acc], a Pull[A], w Writer[B]) dsl.Exp[Acc] {
	acc := dsl.Let(t, init)
	seqFor(t, a.n, func(t *dsl.Thread, i dsl.U32) {
		x := dsl.Let(t, a.At(i))
		next, out := f(acc.Exp, x.Exp)
		// Both are computed from the accumulator before it changes.
		y := dsl.Let(t, out)
		acc.Set(next)
		w(t, i, y.Exp)
	})
	return acc.Exp
}

// invalidPush returns a Push array of one thread whose program records an
// error at the user's line saying msg.
func invalidPush[T dsl.Scalar](msg string) Push[*dsl.Thread, T] {
	bad := dsl.Invalid[uint32](msg)
	return Push[*dsl.Thread, T]{n: bad, run: func(t *dsl.Thread, _ Writer[T]) { dsl.Let(t, bad) }}
}
