package arrays

import (
	"fmt"
	"math/bits"

	"github.com/obsidian-go/obsidian/dsl"
)

// This file holds the combinators of the first Obsidian (Svensson, "An
// embedded language for data-parallel programming", 2008) beside Lava's
// wiring patterns in pull.go: par1, one, initS, endS, bfly, shex, tblLook,
// and rep and repE, which repeat a program in a loop.

// TwoSorter is a function of two elements to two elements, as Evens and
// Odds apply to neighbouring pairs: with the smaller first, the two-sorter
// of a sorting network.
type TwoSorter[T dsl.Scalar] func(x, y dsl.Exp[T]) (dsl.Exp[T], dsl.Exp[T])

// Program is a length-preserving program on arrays at level P that may
// compute into memory of that level, with its barriers: the thesis'
// Program a a, whose sync is Compute here.
type Program[P Level, T dsl.Scalar] func(p P, a Pull[T]) Pull[T]

// Par1 applies f to the first half of a (its first len/2 elements) and g to
// the rest, and joins the results (the thesis' par1, which places two
// circuits one above the other); Two(f) is Par1(f, f). f and g must keep
// lengths.
func Par1[T dsl.Scalar](f, g func(Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	a1, a2 := Halve(a)
	return Append(f(a1), g(a2))
}

// One applies f to the second half of a only (the thesis' one f = par1 idM
// f).
func One[T dsl.Scalar](f func(Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	return Par1(func(x Pull[T]) Pull[T] { return x }, f, a)
}

// InitS applies f to the first k elements of a (all of them when k is at
// least a's length) and keeps the rest (the thesis' initS, an initial
// segment). f must keep lengths.
func InitS[T dsl.Scalar](k dsl.U32, f func(Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	k = k.Min(a.n)
	return Append(f(Take(k, a)), Drop(k, a))
}

// EndS applies f to the elements of a from index k on (none when k is at
// least a's length) and keeps the first k (the thesis' endS, an end
// segment: odds f = endS 1 (evens f)). f must keep lengths.
func EndS[T dsl.Scalar](k dsl.U32, f func(Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	k = k.Min(a.n)
	return Append(Take(k, a), f(Drop(k, a)))
}

// Bfly is the butterfly network of n levels of f on 2^n elements, as the
// thesis writes it in Lava:
//
//	bfly 0 f = id
//	bfly n f = ilv (bfly (n-1) f) ->- evens f
//
// Since ilv distributes over ->-, that is ilv^(n-1) (evens f) ->- ... ->-
// ilv (evens f) ->- evens f, and ilv^k (evens f) is Exchange k f: so Bfly
// is written level by level, each level's index a few operations rather
// than the nest of riffles of the recursion. It is a Pull array without
// memory, each element reading 4^n of a's: a large butterfly puts Compute
// between its levels (see package networks).
func Bfly[T dsl.Scalar](n int, f TwoSorter[T], a Pull[T]) Pull[T] {
	for k := n - 1; k >= 0; k-- {
		a = Exchange(k, f, a)
	}
	return a
}

// Exchange applies f to the pairs of elements whose indices differ only in
// bit k, the element with the bit clear first: ilv applied k times to
// evens f, one level of a butterfly. An element without a partner (its
// index with bit k set is past the end) is kept.
func Exchange[T dsl.Scalar](k int, f TwoSorter[T], a Pull[T]) Pull[T] {
	if k < 0 || k > 31 {
		bad := dsl.Invalid[T](fmt.Sprintf("Exchange of bit %d, outside [0, 31]", k))
		return Pull[T]{n: a.n, ix: func(dsl.U32) dsl.Exp[T] { return bad }}
	}
	bit := dsl.N(uint32(1) << uint(k))
	return Pull[T]{n: a.n, ix: func(i dsl.U32) dsl.Exp[T] {
		low := i.And(bit.Not())
		high := low.Or(bit)
		lo, hi := f(a.ix(low), a.ix(high))
		paired := high.Lt(a.n)
		return dsl.Select(paired, dsl.Select(i.Eq(low), lo, hi), a.ix(i))
	}}
}

// Shex is the shuffle-exchange network of n levels of f in Obsidian (the
// thesis' shex f n = rep n (riffle ->- evens f ->- sync)): n rounds of a
// Riffle then f on the pairs (0,1), (2,3), ..., each computed into memory
// of level P by Rep. On 2^n elements it is the same network as Bfly n f:
// round k pairs the elements whose indices differ in bit n-k.
func Shex[P Level, T dsl.Scalar](p P, n int, f TwoSorter[T], a Pull[T]) Pull[T] {
	return Rep(p, n, func(_ P, a Pull[T]) Pull[T] { return Evens(f, Riffle(a)) }, a)
}

// ShexE is Shex with the number of rounds computed in the kernel (the
// thesis' pshex uses log2 of the length), the same for all threads of
// the level.
func ShexE[P Level, T dsl.Scalar](p P, n dsl.U32, f TwoSorter[T], a Pull[T]) Pull[T] {
	return RepE(p, n, func(_ P, a Pull[T]) Pull[T] { return Evens(f, Riffle(a)) }, a)
}

// TblLook permutes a by a table (the thesis' tblLook): element i of the
// result is element table[i] of a; the result is as long as a, and table
// must have at least as many elements (an index table, typically one held
// in constant memory: dsl.ConstTable). When both lengths are constants, a
// shorter table is an error at the caller's line.
func TblLook[T dsl.Scalar](table Pull[uint32], a Pull[T]) Pull[T] {
	tn, tConst := constLen(table.n)
	an, aConst := constLen(a.n)
	if tConst && aConst && tn < an {
		bad := dsl.Invalid[T](fmt.Sprintf("TblLook of an array of %d elements through a table of %d", an, tn))
		return Pull[T]{n: a.n, ix: func(dsl.U32) dsl.Exp[T] { return bad }}
	}
	return IxMap(table.At, a)
}

// ReducePairs is the thesis' reduction (its reduce2): element 0 of the
// result is a's elements combined by f, a function of a pair giving its
// result as the first element of the pair, as the thesis' addpair
// (a, b) = (a+b, b) and maxpair are; the other elements are what the
// rounds leave there (the thesis' programs keep their lengths). Each
// round combines neighbours in the first s elements and moves the results
// to the front, halving s, until one element is left:
//
//	reduce2 f = for (i = 1; i <= n; i *= 2) { initS s (evens f ->- unriffle) ->- sync; s = s - s/2 }
//
// f is applied in the order of the elements, so it needs to be
// associative but not commutative. a's length must be a constant; each
// round is computed into memory of level P (the sync), as Iterate does.
func ReducePairs[P Level, T dsl.Scalar](p P, f TwoSorter[T], a Pull[T]) Pull[T] {
	n, ok := constLen(a.n)
	if !ok || f == nil {
		return invalidPull(p, a, "ReducePairs of a nil function or of an array whose length is not a constant")
	}
	rounds := dsl.N(uint32(bits.Len32(n))) // i = 1, 2, 4, ... while i <= n
	return Iterate(p, rounds, func(p P, round dsl.U32, a Pull[T]) Pull[T] {
		s := dsl.N(n).Add(dsl.N(1).Shl(round)).Sub(dsl.N(1)).Shr(round) // n halved round times, rounding up
		return InitS(s, func(x Pull[T]) Pull[T] { return Unriffle(Evens(f, x)) }, a)
	}, a)
}

// Rep applies the program f n times (the thesis' rep): in a loop at level
// P over two arrays of P's memory, the result of every round computed
// into one of them (the sync that ends each of the thesis' rounds, so that
// f need not end with one of its own). a's length must be a constant, and
// f must keep it. A negative n is an error at the caller's line.
func Rep[P Level, T dsl.Scalar](p P, n int, f Program[P, T], a Pull[T]) Pull[T] {
	if n < 0 {
		return invalidPull(p, a, fmt.Sprintf("Rep with a negative count %d", n))
	}
	return RepE(p, dsl.N(uint32(n)), f, a)
}

// RepE is Rep with a count computed in the kernel (the thesis' repE), which
// must be the same for all threads of the level (a parameter, a length).
func RepE[P Level, T dsl.Scalar](p P, n dsl.U32, f Program[P, T], a Pull[T]) Pull[T] {
	if f == nil {
		return invalidPull(p, a, "Rep or RepE of a nil program")
	}
	return Iterate(p, n, func(p P, _ dsl.U32, a Pull[T]) Pull[T] { return f(p, a) }, a)
}

// Iterate is RepE whose program also gets the round, 0 to n-1: a's
// length must be a constant, f must keep it, and n must be the same for
// all threads of the level. Rounds alternate between two arrays, two
// rounds per iteration of the loop; an odd last round copies its result
// back when n is not a constant.
func Iterate[P Level, T dsl.Scalar](p P, n dsl.U32, f func(p P, round dsl.U32, a Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	size, ok := constLen(a.n)
	switch {
	case f == nil:
		return invalidPull(p, a, "Iterate of a nil program")
	case !ok:
		return invalidPull(p, a, "Rep, RepE or Iterate of an array whose length is not a constant")
	}
	x, y := allocate[P, T](p, int(size)), allocate[P, T](p, int(size))
	round := func(p P, dst, src dsl.Array[T], i dsl.U32) {
		r := f(p, i, FromArray(src))
		if m, ok := constLen(r.n); ok && m != size {
			r = Replicate(a.n, dsl.Invalid[T](fmt.Sprintf("Rep, RepE or Iterate of a program that turns %d elements into %d", size, m)))
		}
		ComputeInto(p, dst, r)
	}
	ComputeInto(p, x, a)
	pairs := func(p P, i dsl.U32) {
		round(p, y, x, i.Shl(dsl.N(1)))
		round(p, x, y, i.Shl(dsl.N(1)).Add(dsl.N(1)))
	}
	c, constant := constLen(n)
	switch {
	case constant && c/2 == 1:
		pairs(p, dsl.N(0))
	case !constant || c/2 > 1:
		loopOf(p, n.Shr(dsl.N(1)), pairs)
	}
	last := n.Sub(dsl.N(1))
	switch {
	case constant && c%2 == 1:
		round(p, y, x, last)
		return FromArray(y)
	case !constant:
		ifOf(p, n.And(dsl.N(1)).Ne(dsl.N(0)), func(p P) {
			round(p, y, x, last)
			ComputeInto(p, x, FromArray(y))
		})
	}
	return FromArray(x)
}

// invalidPull records an error saying msg at the user's line in p, so that
// the kernel does not build even when the result is never read, and
// returns an array of a's length standing in for the result.
func invalidPull[P Level, T dsl.Scalar](p P, a Pull[T], msg string) Pull[T] {
	dsl.Let(p, dsl.Invalid[uint32](msg))
	return Replicate(a.n, dsl.Invalid[T](msg))
}

// loopOf runs body n times in order at level p (a loop of the level,
// whose count must be the same for all its threads).
func loopOf[P Level](p P, n dsl.U32, body func(p P, i dsl.U32)) {
	switch q := any(p).(type) {
	case *dsl.Block:
		q.For(n, func(b *dsl.Block, i dsl.U32) { body(any(b).(P), i) })
	case *dsl.Warp:
		q.For(n, func(w *dsl.Warp, i dsl.U32) { body(any(w).(P), i) })
	case *dsl.Thread:
		q.For(n, func(t *dsl.Thread, i dsl.U32) { body(any(t).(P), i) })
	}
}

// ifOf runs then at level p when c holds (c must be the same for all its
// threads).
func ifOf[P Level](p P, c dsl.Bool, then func(p P)) {
	switch q := any(p).(type) {
	case *dsl.Block:
		q.If(c, func(b *dsl.Block) { then(any(b).(P)) })
	case *dsl.Warp:
		q.If(c, func(w *dsl.Warp) { then(any(w).(P)) })
	case *dsl.Thread:
		q.If(c, func(t *dsl.Thread) { then(any(t).(P)) })
	}
}
