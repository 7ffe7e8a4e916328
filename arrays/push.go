package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
)

// Writer writes element i of a Push array; it is called in Thread code.
type Writer[T dsl.Scalar] func(t *dsl.Thread, i dsl.U32, v dsl.Exp[T])

// Push is an array given by its length and a program at level P (the
// builder type) that writes its elements through a Writer.
type Push[P dsl.Parallel, T dsl.Scalar] struct {
	n   dsl.U32
	run func(p P, w Writer[T])
}

// NewPush returns the Push array of length n written by run.
func NewPush[P dsl.Parallel, T dsl.Scalar](n dsl.U32, run func(p P, w Writer[T])) Push[P, T] {
	return Push[P, T]{n: n, run: run}
}

// Len returns the array's length.
func (a Push[P, T]) Len() dsl.U32 { return a.n }

// Run records a's program in p, writing through w.
func (a Push[P, T]) Run(p P, w Writer[T]) { a.run(p, w) }

// ToPush turns a Pull array into a Push array at level P: one (virtual)
// thread per element, or at Thread level the thread itself writing the
// elements in order (written out for a constant length up to UnrollLimit).
func ToPush[P dsl.Parallel, T dsl.Scalar](a Pull[T]) Push[P, T] {
	return Push[P, T]{n: a.n, run: func(p P, w Writer[T]) {
		if t, ok := any(p).(*dsl.Thread); ok {
			seqFor(t, a.n, func(t *dsl.Thread, i dsl.U32) { w(t, i, a.ix(i)) })
			return
		}
		p.ForAll(a.n, func(t *dsl.Thread, i dsl.U32) { w(t, i, a.ix(i)) })
	}}
}

// MapPush applies f to every element of a Push array.
func MapPush[P dsl.Parallel, A, B dsl.Scalar](a Push[P, A], f func(dsl.Exp[A]) dsl.Exp[B]) Push[P, B] {
	return Push[P, B]{n: a.n, run: func(p P, w Writer[B]) {
		a.run(p, func(t *dsl.Thread, i dsl.U32, v dsl.Exp[A]) { w(t, i, f(v)) })
	}}
}

// AppendPush concatenates two Push arrays: both programs run, the second
// writing after the first's length.
func AppendPush[P dsl.Parallel, T dsl.Scalar](a, b Push[P, T]) Push[P, T] {
	return Push[P, T]{n: a.n.Add(b.n), run: func(p P, w Writer[T]) {
		a.run(p, w)
		b.run(p, func(t *dsl.Thread, i dsl.U32, v dsl.Exp[T]) { w(t, i.Add(a.n), v) })
	}}
}

// Scatter writes vals[i] at index ix[i], for every i < len(ix) (the length
// of the result is n). Indices outside the destination are dropped by the
// write (global arrays) or reported by the evaluator.
func Scatter[P dsl.Parallel, T dsl.Scalar](n dsl.U32, ix Pull[uint32], vals Pull[T]) Push[P, T] {
	return Push[P, T]{n: n, run: func(p P, w Writer[T]) {
		p.ForAll(ix.n, func(t *dsl.Thread, i dsl.U32) { w(t, ix.ix(i), vals.ix(i)) })
	}}
}

// WriteTo records a's program in p, writing into out the elements whose
// index is below out's length (a's may be longer, as when its last block is
// partial).
func WriteTo[P dsl.Parallel, T dsl.Scalar](p P, out dsl.Array[T], a Push[P, T]) {
	a.run(p, bounded(out, out.Store))
}

// WriteSameTo is WriteTo for programs where many threads may write the same
// value at one index (see dsl.Array.StoreSame).
func WriteSameTo[P dsl.Parallel, T dsl.Scalar](p P, out dsl.Array[T], a Push[P, T]) {
	a.run(p, bounded(out, out.StoreSame))
}

// bounded returns store guarded by the index being below out's length.
func bounded[T dsl.Scalar](out dsl.Array[T], store Writer[T]) Writer[T] {
	return func(t *dsl.Thread, i dsl.U32, v dsl.Exp[T]) {
		t.If(i.Lt(out.Len()), func(t *dsl.Thread) { store(t, i, v) })
	}
}

// Pulls is an array of equally long Pull arrays, as SplitUp and Coalesce
// make them.
type Pulls[T dsl.Scalar] struct {
	n, m dsl.U32 // n arrays of m elements
	at   func(i dsl.U32) Pull[T]
}

// Len returns the number of arrays.
func (p Pulls[T]) Len() dsl.U32 { return p.n }

// At returns array i.
func (p Pulls[T]) At(i dsl.U32) Pull[T] { return p.at(i) }

// SplitUp splits a into consecutive arrays of m elements; a last part
// shorter than m is padded with pad.
func SplitUp[T dsl.Scalar](m uint32, pad dsl.Exp[T], a Pull[T]) Pulls[T] {
	mm := dsl.N(m)
	return Pulls[T]{n: dsl.CeilDiv(a.n, mm), m: mm, at: func(i dsl.U32) Pull[T] {
		base := i.Mul(mm)
		return Generate(mm, func(j dsl.U32) dsl.Exp[T] {
			k := base.Add(j)
			return dsl.Select(k.Lt(a.n), a.ix(k), pad)
		})
	}}
}

// Coalesce splits a into m-element arrays strided across a (array i holds
// a[i], a[i+s], a[i+2s], ... with s = len(a)/m), so that consecutive arrays
// read consecutive addresses: the access pattern that coalesces when each
// array is given to one thread. len(a) must be a multiple of m.
func Coalesce[T dsl.Scalar](m uint32, a Pull[T]) Pulls[T] {
	mm := dsl.N(m)
	s := a.n.Div(mm)
	return Pulls[T]{n: s, m: mm, at: func(i dsl.U32) Pull[T] {
		return Generate(mm, func(j dsl.U32) dsl.Exp[T] { return a.ix(i.Add(s.Mul(j))) })
	}}
}

// Concat joins the arrays of p into one array.
func Concat[T dsl.Scalar](p Pulls[T]) Pull[T] {
	return Generate(p.n.Mul(p.m), func(i dsl.U32) dsl.Exp[T] { return p.at(i.Div(p.m)).ix(i.Rem(p.m)) })
}

// MapBlocks runs f on every array of p in a block of its own (Obsidian's
// mapDist) and concatenates the blocks' results into a Grid-level Push
// array: block i's result goes at [i*perBlock, (i+1)*perBlock). f gets the
// block's builder, the virtual block index and its part; its result must
// have perBlock elements.
func MapBlocks[T, U dsl.Scalar](p Pulls[T], perBlock uint32, f func(b *dsl.Block, bid dsl.U32, part Pull[T]) Push[*dsl.Block, U]) Push[*dsl.Grid, U] {
	per := dsl.N(perBlock)
	return Push[*dsl.Grid, U]{n: p.n.Mul(per), run: func(g *dsl.Grid, w Writer[U]) {
		g.ForAllBlocks(p.n, func(b *dsl.Block, bid dsl.U32) {
			base := bid.Mul(per)
			f(b, bid, p.at(bid)).run(b, func(t *dsl.Thread, i dsl.U32, v dsl.Exp[U]) { w(t, base.Add(i), v) })
		})
	}}
}

// MapThreads runs f on every array of p sequentially in a (virtual) thread
// of its own at level P and concatenates the results: thread i's result
// goes at [i*perThread, (i+1)*perThread). It is how a program gives each
// thread several elements (with Coalesce, so that neighbouring threads read
// neighbouring addresses).
func MapThreads[P dsl.Parallel, T, U dsl.Scalar](p Pulls[T], perThread uint32, f func(t *dsl.Thread, i dsl.U32, part Pull[T]) Push[*dsl.Thread, U]) Push[P, U] {
	per := dsl.N(perThread)
	return Push[P, U]{n: p.n.Mul(per), run: func(q P, w Writer[U]) {
		q.ForAll(p.n, func(t *dsl.Thread, i dsl.U32) {
			base := i.Mul(per)
			f(t, i, p.at(i)).run(t, func(t *dsl.Thread, j dsl.U32, v dsl.Exp[U]) { w(t, base.Add(j), v) })
		})
	}}
}
