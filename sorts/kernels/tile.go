package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Tile reconstruct: every block writes one tile of TileSize consecutive
// outputs, whatever the distribution of the keys. The value at output p is
// the last v with pos[v] <= p (pos is the exclusive scan of the histogram).
// A first kernel finds that value for the first output of every tile by a
// binary search (one thread per tile); the tile's block then marks the
// start of every other run in the tile (value v at pos[v] - tileStart, for
// the v of non-zero count whose pos falls in the tile) and fills the tile
// with a max-scan of the marks.

const (
	tileLog = 12
	// TileSize is the number of outputs a block of TileReconstructKernel
	// writes.
	TileSize    = 1 << tileLog
	tileThreads = 1024
)

// TileStartsKernel returns the kernel that writes, for every tile t, the
// value of output t*TileSize: the last v < len(pos)-1 with pos[v] <=
// t*TileSize. starts has one element per tile and one more, for the end of
// the output (whose value is the last one, len(pos)-2).
func TileStartsKernel() *dsl.Kernel {
	k := dsl.NewKernel("tileStarts", 256)
	pos := dsl.Input[uint32](k, "pos")
	starts := dsl.Output[uint32](k, "starts")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(starts.Len(), func(t *dsl.Thread, i dsl.U32) {
			last := pos.Len().Sub(dsl.N(1))
			target := dsl.Let(t, dsl.Select(i.Lt(starts.Len().Sub(dsl.N(1))), i.Shl(dsl.N(tileLog)), pos.At(last)))
			// The value is one before the first v with pos[v] > target
			// (pos[0] = 0 is not), among the values [0, len(pos)-1).
			after := arrays.UpperBound(t, arrays.Take(last, arrays.FromArray(pos)), target.Exp)
			starts.Store(t, i, after.Max(dsl.N(1)).Sub(dsl.N(1)))
		})
	})
	return k
}

// TileReconstructKernel returns counting sort's reconstruct by tiles: block
// t writes out[t*TileSize, (t+1)*TileSize) from the positions pos and the
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
			marks := dsl.Shared[uint32](b, TileSize)
			b.ForAll(dsl.N(TileSize), func(t *dsl.Thread, j dsl.U32) {
				marks.Store(t, j, dsl.Select(j.Eq(dsl.N(0)), v0.Exp, dsl.N(0)))
			})
			b.Sync()
			// Every v in (v0, v1] has pos[v] in (first, first+TileSize].
			b.ForAll(v1.Sub(v0.Exp), func(t *dsl.Thread, i dsl.U32) {
				v := dsl.Let(t, v0.Add(i).Add(dsl.N(1)))
				at := dsl.Let(t, pos.At(v.Exp))
				t.If(at.Lt(pos.At(v.Add(dsl.N(1)))).And(at.Sub(first.Exp).Lt(dsl.N(TileSize))), func(t *dsl.Thread) {
					marks.Store(t, at.Sub(first.Exp), v.Exp)
				})
			})
			b.Sync()
			arrays.Scan[*dsl.Block](dsl.U32.Max, arrays.FromArray(marks)).Run(b, marks.Store)
			b.Sync()
			b.ForAll(dsl.N(TileSize), func(t *dsl.Thread, j dsl.U32) {
				p := dsl.Let(t, first.Add(j))
				t.If(p.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, p.Exp, marks.At(j).Add(lo)) })
			})
		})
	})
	return k
}
