package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Pair is an element of an array of pairs: two expressions, of types A and
// B, read at one index.
type Pair[A, B dsl.Scalar] struct {
	Fst dsl.Exp[A]
	Snd dsl.Exp[B]
}

// Pairs is a Pull array of pairs: a length and an index function that
// gives both elements of a pair. Go has no scalar type for a pair, so an
// array of pairs is two arrays of one length read at the same index; Zip
// and Unzip go from one form to the other and cost nothing.
type Pairs[A, B dsl.Scalar] struct {
	n  dsl.U32
	ix func(dsl.U32) Pair[A, B]
}

// GeneratePairs returns the array of pairs of length n whose element i is
// f(i).
func GeneratePairs[A, B dsl.Scalar](n dsl.U32, f func(i dsl.U32) Pair[A, B]) Pairs[A, B] {
	if f == nil {
		return invalidPairs[A, B]("GeneratePairs with a nil index function")
	}
	return Pairs[A, B]{n: n, ix: f}
}

// Zip pairs the elements of a and b at equal indices. a and b must have the
// same length: when both lengths are constants, a difference is an error
// at the caller's line; otherwise the result is as long as the shorter, so
// that nothing is read past either array's end.
func Zip[A, B dsl.Scalar](a Pull[A], b Pull[B]) Pairs[A, B] {
	n, m := a.n, b.n
	cn, nConst := constLen(n)
	cm, mConst := constLen(m)
	switch {
	case nConst && mConst && cn != cm:
		return invalidPairs[A, B](fmt.Sprintf("Zip of arrays of different lengths, %d and %d", cn, cm))
	case !nConst || !mConst:
		n = n.Min(m)
	}
	return Pairs[A, B]{n: n, ix: func(i dsl.U32) Pair[A, B] { return Pair[A, B]{a.At(i), b.At(i)} }}
}

// invalidPairs returns an array of pairs whose length and elements are an
// error at the user's line saying msg: a kernel that uses it does not
// build.
func invalidPairs[A, B dsl.Scalar](msg string) Pairs[A, B] {
	n := dsl.Invalid[uint32](msg)
	fst, snd := dsl.Invalid[A](msg), dsl.Invalid[B](msg)
	return Pairs[A, B]{n: n, ix: func(dsl.U32) Pair[A, B] { return Pair[A, B]{fst, snd} }}
}

// Unzip returns the array of the first elements and the array of the
// second elements of p.
func Unzip[A, B dsl.Scalar](p Pairs[A, B]) (Pull[A], Pull[B]) {
	return Pull[A]{n: p.n, ix: func(i dsl.U32) dsl.Exp[A] { return p.At(i).Fst }},
		Pull[B]{n: p.n, ix: func(i dsl.U32) dsl.Exp[B] { return p.At(i).Snd }}
}

// Len returns the number of pairs.
func (p Pairs[A, B]) Len() dsl.U32 { return p.n }

// At returns pair i.
func (p Pairs[A, B]) At(i dsl.U32) Pair[A, B] {
	if p.ix == nil {
		const msg = "read of a zero Pairs array (one no combinator built)"
		return Pair[A, B]{dsl.Invalid[A](msg), dsl.Invalid[B](msg)}
	}
	return p.ix(i)
}

// MapPairs applies f, a function of a pair to a pair, to every element.
func MapPairs[A, B, C, D dsl.Scalar](p Pairs[A, B], f func(Pair[A, B]) Pair[C, D]) Pairs[C, D] {
	if f == nil {
		return invalidPairs[C, D]("MapPairs with a nil function")
	}
	return Pairs[C, D]{n: p.n, ix: func(i dsl.U32) Pair[C, D] { return f(p.At(i)) }}
}

// IxMapPairs permutes p: element i of the result is element f(i) of p.
func IxMapPairs[A, B dsl.Scalar](f func(dsl.U32) dsl.U32, p Pairs[A, B]) Pairs[A, B] {
	if f == nil {
		return invalidPairs[A, B]("IxMapPairs with a nil index function")
	}
	return Pairs[A, B]{n: p.n, ix: func(i dsl.U32) Pair[A, B] { return p.At(f(i)) }}
}

// ReversePairs reverses p.
func ReversePairs[A, B dsl.Scalar](p Pairs[A, B]) Pairs[A, B] {
	last := p.n.Sub(dsl.N(1))
	return IxMapPairs(func(i dsl.U32) dsl.U32 { return last.Sub(i) }, p)
}

// EvensPairs applies the two-sorter (or any function of two pairs) f to the
// pairs of elements (0,1), (2,3), ... of p; an odd last element is kept.
// It is Evens for arrays of pairs: with CmpSwapByKey, one step of a
// sorting network that sorts keys carrying values.
func EvensPairs[A, B dsl.Scalar](f func(x, y Pair[A, B]) (Pair[A, B], Pair[A, B]), p Pairs[A, B]) Pairs[A, B] {
	if f == nil {
		return invalidPairs[A, B]("EvensPairs with a nil function")
	}
	return evensPairs(f, p)
}

// evensPairs is EvensPairs for an f known not to be nil.
func evensPairs[A, B dsl.Scalar](f func(x, y Pair[A, B]) (Pair[A, B], Pair[A, B]), p Pairs[A, B]) Pairs[A, B] {
	return Pairs[A, B]{n: p.n, ix: func(i dsl.U32) Pair[A, B] {
		even := i.And(dsl.N(1)).Eq(dsl.N(0))
		// The partner of i, clamped so that an odd last element pairs with itself.
		j := dsl.Select(even, i.Add(dsl.N(1)).Min(p.n.Sub(dsl.N(1))), i.Sub(dsl.N(1)))
		lo, hi := f(p.At(i.Min(j)), p.At(i.Max(j)))
		mine := selectPair(even, lo, hi)
		return selectPair(j.Ne(i), mine, p.At(i))
	}}
}

// OddsPairs applies f to the pairs of elements (1,2), (3,4), ...; the
// first element, and an unpaired last one, are kept.
func OddsPairs[A, B dsl.Scalar](f func(x, y Pair[A, B]) (Pair[A, B], Pair[A, B]), p Pairs[A, B]) Pairs[A, B] {
	if f == nil {
		return invalidPairs[A, B]("OddsPairs with a nil function")
	}
	rest := evensPairs(f, Pairs[A, B]{n: p.n.Sub(dsl.N(1)), ix: func(i dsl.U32) Pair[A, B] { return p.At(i.Add(dsl.N(1))) }})
	return Pairs[A, B]{n: p.n, ix: func(i dsl.U32) Pair[A, B] {
		return selectPair(i.Eq(dsl.N(0)), p.At(i), rest.At(i.Sub(dsl.N(1))))
	}}
}

// selectPair returns x when c holds and y otherwise.
func selectPair[A, B dsl.Scalar](c dsl.Bool, x, y Pair[A, B]) Pair[A, B] {
	return Pair[A, B]{dsl.Select(c, x.Fst, y.Fst), dsl.Select(c, x.Snd, y.Snd)}
}

// CmpSwapByKey is the two-sorter of pairs of a key (Fst) and a value (Snd):
// it returns x and y ordered by key, the value travelling with its key. On
// equal keys x stays first, so a network of it built of neighbour swaps
// (EvensPairs, OddsPairs) sorts stably.
func CmpSwapByKey[K dsl.Number, V dsl.Scalar](x, y Pair[K, V]) (lo, hi Pair[K, V]) {
	swap := y.Fst.Lt(x.Fst)
	return selectPair(swap, y, x), selectPair(swap, x, y)
}

// PairWriter writes element i of a PushPairs array; it is called in Thread
// code.
type PairWriter[A, B dsl.Scalar] func(t *dsl.Thread, i dsl.U32, v Pair[A, B])

// PushPairs is a Push array of pairs: a length and a program at level P
// that writes its elements, both halves of a pair by one thread at once.
type PushPairs[P dsl.Parallel, A, B dsl.Scalar] struct {
	n   dsl.U32
	run func(p P, w PairWriter[A, B])
}

// Len returns the number of pairs.
func (a PushPairs[P, A, B]) Len() dsl.U32 { return a.n }

// Run records a's program in p, writing through w.
func (a PushPairs[P, A, B]) Run(p P, w PairWriter[A, B]) {
	if a.run == nil {
		dsl.Let(p, dsl.Invalid[uint32]("Run of a zero PushPairs array (one no combinator built)"))
		return
	}
	a.run(p, w)
}

// ToPushPairs turns an array of pairs into a Push array at level P: one
// (virtual) thread per pair, which writes both of its elements.
func ToPushPairs[P dsl.Parallel, A, B dsl.Scalar](p Pairs[A, B]) PushPairs[P, A, B] {
	return PushPairs[P, A, B]{n: p.n, run: func(q P, w PairWriter[A, B]) {
		q.ForAll(p.n, func(t *dsl.Thread, i dsl.U32) { w(t, i, p.At(i)) })
	}}
}

// WritePairsTo records a's program in p, writing the first elements into
// fst and the second ones into snd, each only below that array's length.
func WritePairsTo[P dsl.Parallel, A, B dsl.Scalar](p P, fst dsl.Array[A], snd dsl.Array[B], a PushPairs[P, A, B]) {
	a.Run(p, func(t *dsl.Thread, i dsl.U32, v Pair[A, B]) {
		t.If(i.Lt(fst.Len()), func(t *dsl.Thread) { fst.Store(t, i, v.Fst) })
		t.If(i.Lt(snd.Len()), func(t *dsl.Thread) { snd.Store(t, i, v.Snd) })
	})
}

// ForcePairs writes a Push array of pairs of the block into two new shared
// arrays, one for each half of the pairs, ends with one barrier for both,
// and returns the array of pairs reading them. The length must be a
// constant.
func ForcePairs[A, B dsl.Scalar](b *dsl.Block, a PushPairs[*dsl.Block, A, B]) Pairs[A, B] {
	return forcePairs(b, a)
}

// ComputePairs writes an array of pairs into two shared arrays, one thread
// per pair writing both of its elements, ends with one barrier, and
// returns the array of pairs reading them: Compute for pairs.
func ComputePairs[A, B dsl.Scalar](b *dsl.Block, p Pairs[A, B]) Pairs[A, B] {
	return forcePairs(b, ToPushPairs[*dsl.Block](p))
}

// forcePairs is ForcePairs: the one place that allocates shared memory for
// pairs and puts the barrier after it.
func forcePairs[A, B dsl.Scalar](b *dsl.Block, a PushPairs[*dsl.Block, A, B]) Pairs[A, B] {
	n, ok := constLen(a.n)
	if !ok {
		// Shared memory has a size fixed when the kernel is built. The
		// error is recorded in b, so that it is reported even when the
		// result is never read; a length that is itself an error (Zip of
		// arrays of different lengths) reports that error. What is
		// returned only stands in for the result of a kernel that does
		// not build.
		if _, bad := a.n.IR().(*ir.Invalid); bad {
			dsl.Let(b, a.n)
		} else {
			dsl.Let(b, dsl.Invalid[uint32]("ComputePairs or ForcePairs of an array whose length is not a constant"))
		}
		return Zip(FromArray(dsl.Shared[A](b, 1)), FromArray(dsl.Shared[B](b, 1)))
	}
	fst, snd := dsl.Shared[A](b, int(n)), dsl.Shared[B](b, int(n))
	a.Run(b, func(t *dsl.Thread, i dsl.U32, v Pair[A, B]) {
		fst.Store(t, i, v.Fst)
		snd.Store(t, i, v.Snd)
	})
	b.Sync()
	return Zip(FromArray(fst), FromArray(snd))
}
