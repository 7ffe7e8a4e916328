package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/simplify"
)

// Pull is an array given by its length and an index function.
type Pull[T dsl.Scalar] struct {
	n  dsl.U32
	ix func(dsl.U32) dsl.Exp[T]
	// most, when not 0, is a constant the length never exceeds: Take of an
	// array of constant length keeps that length as its bound, so that a
	// collective may keep state per element in memory of a fixed size.
	most uint32
}

// Generate returns the array of length n whose element i is f(i).
func Generate[T dsl.Scalar](n dsl.U32, f func(i dsl.U32) dsl.Exp[T]) Pull[T] {
	return Pull[T]{n: n, ix: f}
}

// FromArray returns the array a reads.
func FromArray[T dsl.Scalar](a dsl.Array[T]) Pull[T] {
	return Pull[T]{n: a.Len(), ix: a.At}
}

// Len returns the array's length.
func (a Pull[T]) Len() dsl.U32 { return a.n }

// At returns element i.
func (a Pull[T]) At(i dsl.U32) dsl.Exp[T] {
	if a.ix == nil {
		return dsl.Invalid[T]("read of a zero Pull array (one no combinator built)")
	}
	return a.ix(i)
}

// Map applies f to every element.
func Map[A, B dsl.Scalar](a Pull[A], f func(dsl.Exp[A]) dsl.Exp[B]) Pull[B] {
	return Pull[B]{n: a.n, most: a.most, ix: func(i dsl.U32) dsl.Exp[B] { return f(a.ix(i)) }}
}

// ZipWith combines the elements of a and b pairwise with f; the result has
// the length of a (b must be at least as long).
func ZipWith[A, B, C dsl.Scalar](f func(dsl.Exp[A], dsl.Exp[B]) dsl.Exp[C], a Pull[A], b Pull[B]) Pull[C] {
	return Pull[C]{n: a.n, most: a.most, ix: func(i dsl.U32) dsl.Exp[C] { return f(a.ix(i), b.ix(i)) }}
}

// IxMap permutes a: element i of the result is element f(i) of a.
func IxMap[T dsl.Scalar](f func(dsl.U32) dsl.U32, a Pull[T]) Pull[T] {
	return Pull[T]{n: a.n, most: a.most, ix: func(i dsl.U32) dsl.Exp[T] { return a.ix(f(i)) }}
}

// Reverse reverses a.
func Reverse[T dsl.Scalar](a Pull[T]) Pull[T] {
	last := a.n.Sub(dsl.N(1))
	return IxMap(func(i dsl.U32) dsl.U32 { return last.Sub(i) }, a)
}

// SplitAt splits a before index k.
func SplitAt[T dsl.Scalar](k dsl.U32, a Pull[T]) (Pull[T], Pull[T]) {
	return Take(k, a), Drop(k, a)
}

// Take returns the first k elements of a (k must not exceed a's length).
func Take[T dsl.Scalar](k dsl.U32, a Pull[T]) Pull[T] {
	most, _ := a.maxLen()
	if c, ok := constLen(k); ok && (most == 0 || c < most) {
		most = c
	}
	return Pull[T]{n: k, ix: a.ix, most: most}
}

// Drop returns a without its first k elements.
func Drop[T dsl.Scalar](k dsl.U32, a Pull[T]) Pull[T] {
	return Pull[T]{n: a.n.Sub(k), ix: func(i dsl.U32) dsl.Exp[T] { return a.ix(i.Add(k)) }}
}

// Halve splits a into its first len/2 elements and the rest.
func Halve[T dsl.Scalar](a Pull[T]) (Pull[T], Pull[T]) {
	return SplitAt(a.n.Div(dsl.N(2)), a)
}

// Append concatenates a and b.
func Append[T dsl.Scalar](a, b Pull[T]) Pull[T] {
	return Pull[T]{n: a.n.Add(b.n), ix: func(i dsl.U32) dsl.Exp[T] {
		return dsl.Select(i.Lt(a.n), a.ix(i), b.ix(i.Sub(a.n)))
	}}
}

// Replicate returns the array of n copies of x.
func Replicate[T dsl.Scalar](n dsl.U32, x dsl.Exp[T]) Pull[T] {
	return Pull[T]{n: n, ix: func(dsl.U32) dsl.Exp[T] { return x }}
}

// Singleton returns the array holding only x.
func Singleton[T dsl.Scalar](x dsl.Exp[T]) Pull[T] { return Replicate(dsl.N(1), x) }

// Last returns the last element of a.
func Last[T dsl.Scalar](a Pull[T]) dsl.Exp[T] { return a.ix(a.n.Sub(dsl.N(1))) }

// Evens applies the two-sorter (or any function of two elements) f to the
// pairs (0,1), (2,3), ...; an odd last element is kept.
func Evens[T dsl.Scalar](f func(x, y dsl.Exp[T]) (dsl.Exp[T], dsl.Exp[T]), a Pull[T]) Pull[T] {
	return Pull[T]{n: a.n, ix: func(i dsl.U32) dsl.Exp[T] {
		even := i.And(dsl.N(1)).Eq(dsl.N(0))
		// The partner of i, clamped so that an odd last element pairs with itself.
		j := dsl.Select(even, i.Add(dsl.N(1)).Min(a.n.Sub(dsl.N(1))), i.Sub(dsl.N(1)))
		lo, hi := f(a.ix(i.Min(j)), a.ix(i.Max(j)))
		paired := j.Ne(i)
		return dsl.Select(paired, dsl.Select(even, lo, hi), a.ix(i))
	}}
}

// Odds applies f to the pairs (1,2), (3,4), ...; the first element, and an
// unpaired last one, are kept.
func Odds[T dsl.Scalar](f func(x, y dsl.Exp[T]) (dsl.Exp[T], dsl.Exp[T]), a Pull[T]) Pull[T] {
	rest := Evens(f, Drop(dsl.N(1), a))
	return Pull[T]{n: a.n, ix: func(i dsl.U32) dsl.Exp[T] {
		return dsl.Select(i.Eq(dsl.N(0)), a.ix(i), rest.ix(i.Sub(dsl.N(1))))
	}}
}

// Riffle interleaves the two halves of a (a perfect shuffle): the result is
// a[0], a[h], a[1], a[h+1], ... with h = ceil(n/2), so that it is the
// inverse of Unriffle for every length.
func Riffle[T dsl.Scalar](a Pull[T]) Pull[T] {
	half := ceilHalf(a.n)
	return IxMap(func(i dsl.U32) dsl.U32 {
		return i.Shr(dsl.N(1)).Add(dsl.Select(i.And(dsl.N(1)).Eq(dsl.N(0)), dsl.N(0), half))
	}, a)
}

// Unriffle is the inverse of Riffle: the even-indexed elements, then the
// odd-indexed ones.
func Unriffle[T dsl.Scalar](a Pull[T]) Pull[T] {
	half := ceilHalf(a.n)
	return IxMap(func(i dsl.U32) dsl.U32 {
		return dsl.Select(i.Lt(half), i.Shl(dsl.N(1)), i.Sub(half).Shl(dsl.N(1)).Add(dsl.N(1)))
	}, a)
}

// ceilHalf returns ceil(n/2) without overflow.
func ceilHalf(n dsl.U32) dsl.U32 { return n.Shr(dsl.N(1)).Add(n.And(dsl.N(1))) }

// Two applies f to each half of a separately (the thesis' two): the halves
// must have equal length, and f must keep lengths.
func Two[T dsl.Scalar](f func(Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	a1, a2 := Halve(a)
	return Append(f(a1), f(a2))
}

// Ilv applies f to the even-indexed and the odd-indexed elements separately
// (the thesis' ilv): Riffle of Two f of Unriffle.
func Ilv[T dsl.Scalar](f func(Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	return Riffle(Two(f, Unriffle(a)))
}

// BinSplit splits a into 2^n parts of equal length, applies f to each and
// concatenates the results (f must keep lengths). The part an index falls
// in is computed, not branched on, so this fuses into one expression per
// element, as in the paper's Sklansky.
func BinSplit[T dsl.Scalar](n int, f func(Pull[T]) Pull[T], a Pull[T]) Pull[T] {
	if n == 0 {
		return f(a)
	}
	parts := dsl.N(1 << uint(n))
	m := a.n.Div(parts)
	return Pull[T]{n: a.n, ix: func(i dsl.U32) dsl.Exp[T] {
		j := i.Rem(m)
		base := i.Sub(j)
		part := Pull[T]{n: m, ix: func(j dsl.U32) dsl.Exp[T] { return a.ix(base.Add(j)) }}
		return f(part).ix(j)
	}}
}

// Fold combines the elements of a from left to right with f, starting from
// init, sequentially in the thread t (written out element by element for
// a constant length up to UnrollLimit).
func Fold[T, A dsl.Scalar](t *dsl.Thread, f func(acc dsl.Exp[A], x dsl.Exp[T]) dsl.Exp[A], init dsl.Exp[A], a Pull[T]) dsl.Exp[A] {
	acc := dsl.Let(t, init)
	seqFor(t, a.n, func(t *dsl.Thread, i dsl.U32) { acc.Set(f(acc.Exp, a.ix(i))) })
	return acc.Exp
}

// UnrollLimit is the longest constant length for which a thread's
// sequential work on an array (Fold, SeqScan, SeqScanExclusive, MapAccum,
// ToPush and so Compute at Thread level) is written out element by element
// instead of as a loop, so that the compiler keeps the elements in
// registers: a thread's run of a tile, as fast kernels hold it.
const UnrollLimit = 32

// seqFor runs body for every i in [0, n) in order in the thread t: written
// out for a constant n up to UnrollLimit, a loop otherwise.
func seqFor(t *dsl.Thread, n dsl.U32, body func(t *dsl.Thread, i dsl.U32)) {
	if c, ok := constLen(n); ok && c <= UnrollLimit {
		for i := range c {
			body(t, dsl.N(i))
		}
		return
	}
	t.For(n, body)
}

// maxLen returns a constant a's length never exceeds, when one is known:
// the length itself when it is a constant, or the bound Take kept.
func (a Pull[T]) maxLen() (uint32, bool) {
	if c, ok := constLen(a.n); ok {
		return c, true
	}
	return a.most, a.most > 0
}

// constLen returns the length n when it is a constant.
func constLen(n dsl.U32) (uint32, bool) {
	if c, ok := simplify.Constant(n.IR()); ok {
		return uint32(c.Bits), true
	}
	return 0, false
}
