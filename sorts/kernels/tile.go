package sorts

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Tile reconstruct: every block writes one tile of tileSize consecutive
// outputs, whatever the distribution of the keys. The value at output p is
// the last v with pos[v] <= p (pos is the exclusive scan of the histogram).
// A first kernel finds that value for the first output of every tile by a
// binary search (one thread per tile); the tile's block then marks the
// start of every other run in the tile (value v at pos[v] - tileStart, for
// the v of non-zero count whose pos falls in the tile) and fills the tile
// with a max-scan of the marks.

const (
	tileLog        = 12
	tileSize       = 1 << tileLog
	tileThreads    = 1024
	tilePerThread  = tileSize / tileThreads
	tileThreadsLog = 10
)

// TileStartsKernel returns the kernel that writes, for every tile t, the
// value of output t*tileSize: the last v < len(pos)-1 with pos[v] <=
// t*tileSize. starts has one element per tile and one more, for the end of
// the output (whose value is the last one, len(pos)-2).
func TileStartsKernel() *dsl.Kernel {
	k := dsl.NewKernel("tileStarts", 256)
	pos := dsl.Input[uint32](k, "pos")
	starts := dsl.Output[uint32](k, "starts")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(starts.Len(), func(t *dsl.Thread, i dsl.U32) {
			last := pos.Len().Sub(dsl.N(1))
			target := dsl.Let(t, dsl.Select(i.Lt(starts.Len().Sub(dsl.N(1))), i.Shl(dsl.N(tileLog)), pos.At(last)))
			lo, hi := dsl.Let(t, dsl.N(0)), dsl.Let(t, last.Sub(dsl.N(1)))
			t.While(lo.Lt(hi.Exp), func(t *dsl.Thread) {
				mid := dsl.Let(t, lo.Add(hi.Sub(lo.Exp).Add(dsl.N(1)).Shr(dsl.N(1))))
				t.IfElse(pos.At(mid.Exp).Le(target.Exp),
					func(t *dsl.Thread) { lo.Set(mid.Exp) },
					func(t *dsl.Thread) { hi.Set(mid.Sub(dsl.N(1))) })
			})
			starts.Store(t, i, lo.Exp)
		})
	})
	return k
}

// TileReconstructKernel returns counting sort's reconstruct by tiles: block
// t writes out[t*tileSize, (t+1)*tileSize) from the positions pos and the
// tile starts of TileStartsKernel.
func TileReconstructKernel() *dsl.Kernel {
	k := dsl.NewKernel("reconstructTiles", tileThreads)
	pos := dsl.Input[uint32](k, "pos")
	starts := dsl.Input[uint32](k, "starts")
	lo := dsl.Param[uint32](k, "lo")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(starts.Len().Sub(dsl.N(1)), func(b *dsl.Block, tile dsl.U32) {
			first := dsl.Let(b, tile.Shl(dsl.N(tileLog)))
			v0 := dsl.Let(b, starts.At(tile))
			v1 := dsl.Let(b, starts.At(tile.Add(dsl.N(1))))
			marks := dsl.Shared[uint32](b, tileSize)
			b.ForAll(dsl.N(tileSize), func(t *dsl.Thread, j dsl.U32) {
				marks.Store(t, j, dsl.Select(j.Eq(dsl.N(0)), v0.Exp, dsl.N(0)))
			})
			b.Sync()
			// Every v in (v0, v1] has pos[v] in (first, first+tileSize].
			b.ForAll(v1.Sub(v0.Exp), func(t *dsl.Thread, i dsl.U32) {
				v := dsl.Let(t, v0.Add(i).Add(dsl.N(1)))
				at := dsl.Let(t, pos.At(v.Exp))
				t.If(at.Lt(pos.At(v.Add(dsl.N(1)))).And(at.Sub(first.Exp).Lt(dsl.N(tileSize))), func(t *dsl.Thread) {
					marks.Store(t, at.Sub(first.Exp), v.Exp)
				})
			})
			b.Sync()
			maxScanInPlace(b, marks)
			b.ForAll(dsl.N(tileSize), func(t *dsl.Thread, j dsl.U32) {
				p := dsl.Let(t, first.Add(j))
				t.If(p.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, p.Exp, marks.At(j).Add(lo)) })
			})
		})
	})
	return k
}

// maxScanInPlace replaces the tileSize elements of marks by their inclusive
// max-scan: each thread folds tilePerThread consecutive elements, Sklansky
// scans the threads' maxima, and each thread rescans its elements from the
// maximum of the threads before it. It ends with a barrier.
func maxScanInPlace(b *dsl.Block, marks dsl.Array[uint32]) {
	per := dsl.N(tilePerThread)
	partial := arrays.Compute(b, arrays.Generate(dsl.N(tileThreads), func(i dsl.U32) dsl.U32 {
		m := marks.At(i.Mul(per))
		for k := uint32(1); k < tilePerThread; k++ {
			m = m.Max(marks.At(i.Mul(per).Add(dsl.N(k))))
		}
		return m
	}))
	scanned := sklanskyWith(b, tileThreadsLog, dsl.U32.Max, partial)
	b.ForAll(dsl.N(tileThreads), func(t *dsl.Thread, i dsl.U32) {
		run := dsl.Let(t, dsl.Select(i.Gt(dsl.N(0)), scanned.At(i.Sub(dsl.N(1))), dsl.N(0)))
		t.For(per, func(t *dsl.Thread, k dsl.U32) {
			j := dsl.Let(t, i.Mul(per).Add(k))
			run.Set(run.Max(marks.At(j.Exp)))
			marks.Store(t, j.Exp, run.Exp)
		})
	})
	b.Sync()
}

// sklanskyWith is Sklansky's inclusive scan of the 2^n elements of a in one
// block for any associative operator op.
func sklanskyWith(b *dsl.Block, n int, op func(x, y dsl.U32) dsl.U32, a arrays.Pull[uint32]) arrays.Pull[uint32] {
	fan := func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
		a1, a2 := arrays.Halve(a)
		last := arrays.Last(a1)
		return arrays.Append(a1, arrays.Map(a2, func(x dsl.U32) dsl.U32 { return op(last, x) }))
	}
	for i := 0; i < n; i++ {
		a = arrays.Compute(b, arrays.BinSplit(n-1-i, fan, a))
	}
	return a
}
