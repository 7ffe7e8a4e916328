package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Tile reconstruct: the outputs are cut into tiles of TileSize, one block
// each. The value at output p is the last v with pos[v] <= p (pos is the
// exclusive scan of the histogram). A first kernel finds that value for the
// first output of every tile by a binary search over all of pos (one thread
// per tile): TileStartsKernel after the scan, or, for few values,
// ScanStartsKernel, which scans the counts too. The tile's block then has
// its first value v0 and the next tile's, v1, and fills the tile by one
// of three ways, as its span v1-v0 says:
//
//   - When v1-v0 is at most walkSpan (a few runs start in the tile, as when
//     each value has many keys), every thread writes its outputs on its own,
//     in increasing order, stepping over the runs that start between one of
//     its outputs and the next: at most v1-v0 loads of pos a thread, with no
//     shared memory and no barrier.
//   - Up to scanSpan, the block marks the start of every run in the tile
//     (value v at pos[v] - the tile's first output, for the v of non-zero
//     count whose pos falls in the tile) and fills the tile with a max-scan
//     of the marks.
//   - Past scanSpan (a tile spanning many values of no key, as when keys lie
//     at both ends of a wide range), marking would visit every value of the
//     span, and each output is found by a binary search of at most 32 steps
//     over the positions of the tile's values.
//
// Measured on an H200 with 2^25 keys (ncu, docs/performance.md): the walk
// writes the keys of 2^8 values (less than a run a tile) in 33 µs where a
// binary search of each output took 38, and of 2^16 values (8 runs a tile)
// in 40 µs where the marks and scan took 107; with 128 runs a tile (2^20
// values) it took 153 µs against the scan's 108, and with 32 (2^18 values)
// the whole sort took 0.430 ms against 0.466: the walk's cost grows with the
// runs, the scan's does not, and they cross near 75 runs.

const (
	tileLog = 12
	// TileSize is the number of outputs of a tile: one value of
	// TileStartsKernel's for each.
	TileSize = 1 << tileLog
	// tileThreads is the block of TileReconstructKernel: 16 outputs a
	// thread.
	tileThreads = 256
	// walkSpan is the most values past its first that a tile fills by
	// walking, and scanSpan the most it fills by marks and scan.
	walkSpan = 1 << 6
	scanSpan = 1 << 16
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
			starts.Store(t, i, tileStart(t, arrays.FromArray(pos), i, starts.Len()))
		})
	})
	return k
}

// tileStart returns the value of tile i's first output, of tiles tiles
// (the last standing for the end of the output), given the positions pos.
func tileStart(t *dsl.Thread, pos arrays.Pull[uint32], i, tiles dsl.U32) dsl.U32 {
	last := pos.Len().Sub(dsl.N(1))
	target := dsl.Let(t, dsl.Select(i.Lt(tiles.Sub(dsl.N(1))), i.Shl(dsl.N(tileLog)), pos.At(last)))
	// The value is one before the first v with pos[v] > target (pos[0] = 0
	// is not), among the values [0, len(pos)-1).
	after := arrays.UpperBound(t, arrays.Take(last, pos), target.Exp)
	return after.Max(dsl.N(1)).Sub(dsl.N(1))
}

// ScanStartsMaxBins is the most values whose counts ScanStartsKernel
// takes.
const ScanStartsMaxBins = 1<<12 - 1

// ScanStartsKernel returns the kernel that does what an exclusive scan of
// the counts hist into pos and TileStartsKernel do, for at most
// ScanStartsMaxBins counts, in one launch where they take three: pos (one
// longer than hist) gets 0 and the sums of the counts before each value
// and of all, and starts the value of each tile's first output. Every
// block scans the counts into shared memory, so that no block waits for
// another, and finds the starts of its share of the tiles there; the first
// block writes pos.
func ScanStartsKernel() *dsl.Kernel {
	k := dsl.NewKernel("scanStarts", scanStartsThreads)
	hist := dsl.Input[uint32](k, "hist")
	pos := dsl.Output[uint32](k, "pos")
	starts := dsl.Output[uint32](k, "starts")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(starts.Len(), dsl.N(scanStartsThreads)), func(b *dsl.Block, bid dsl.U32) {
			held := dsl.Shared[uint32](b, ScanStartsMaxBins+1)
			bins := dsl.Let(b, hist.Len().Min(dsl.N(ScanStartsMaxBins))).Exp
			counts := arrays.Generate(bins.Add(dsl.N(1)), func(v dsl.U32) dsl.U32 {
				return dsl.Select(v.Lt(bins), hist.At(v), dsl.N(0))
			})
			arrays.ScanExclusive[*dsl.Block](dsl.U32.Add, dsl.N(0), counts).Run(b, held.Store)
			b.Sync()
			b.If(bid.Eq(dsl.N(0)), func(b *dsl.Block) {
				b.ForAll(bins.Add(dsl.N(1)), func(t *dsl.Thread, v dsl.U32) { pos.Store(t, v, held.At(v)) })
			})
			scanned := arrays.Take(bins.Add(dsl.N(1)), arrays.FromArray(held))
			b.ForAll(dsl.N(scanStartsThreads), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, bid.Mul(dsl.N(scanStartsThreads)).Add(tid)).Exp
				t.If(i.Lt(starts.Len()), func(t *dsl.Thread) { starts.Store(t, i, tileStart(t, scanned, i, starts.Len())) })
			})
		})
	})
	return k
}

// scanStartsThreads is the block of ScanStartsKernel: a tile's start for
// each thread.
const scanStartsThreads = 256

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
			span := dsl.Let(b, v1.Sub(v0.Exp))
			b.IfElse(span.Le(dsl.N(walkSpan)), func(b *dsl.Block) {
				walkTile(b, pos, out, first.Exp, v0.Exp, v1.Exp, lo)
			}, func(b *dsl.Block) {
				b.IfElse(span.Gt(dsl.N(scanSpan)), func(b *dsl.Block) {
					searchTile(b, pos, out, first.Exp, v0.Exp, v1.Exp, lo)
				}, func(b *dsl.Block) {
					scanTile(b, pos, out, marks, first.Exp, v0.Exp, v1.Exp, lo)
				})
			})
		})
	})
	return k
}

// walkTile has block b write the same tile, each thread its outputs tid,
// tid+tileThreads, ... in increasing order: an output's value is the last
// v with pos[v] at or before it, so that from one of a thread's outputs to
// the next the value only grows, and the thread steps over the runs that
// start between them (at most v1-v0 steps in all, one load each).
func walkTile(b *dsl.Block, pos, out dsl.Array[uint32], first, v0, v1, lo dsl.U32) {
	b.ForAll(dsl.N(tileThreads), func(t *dsl.Thread, tid dsl.U32) {
		v := dsl.Let(t, v0)
		// next is where the run after v's starts; v1 is at most the last
		// value, so that pos[v+1] is always there.
		next := dsl.Let(t, pos.At(v0.Add(dsl.N(1))))
		for j := range TileSize / tileThreads {
			p := dsl.Let(t, first.Add(dsl.N(uint32(j*tileThreads))).Add(tid))
			t.If(p.Lt(out.Len()), func(t *dsl.Thread) {
				t.While(next.Le(p.Exp).And(v.Lt(v1)), func(t *dsl.Thread) {
					v.Set(v.Add(dsl.N(1)))
					next.Set(pos.At(v.Add(dsl.N(1))))
				})
				out.Store(t, p.Exp, v.Add(lo))
			})
		}
	})
}

// searchTile has block b write the tile of outputs from first, whose
// values are v0 to v1, each thread its outputs tid, tid+tileThreads, ...
// by a binary search over the positions of v0+1 to v1.
func searchTile(b *dsl.Block, pos, out dsl.Array[uint32], first, v0, v1, lo dsl.U32) {
	runs := arrays.Drop(v0.Add(dsl.N(1)), arrays.Take(v1.Add(dsl.N(1)), arrays.FromArray(pos)))
	b.ForAll(dsl.N(tileThreads), func(t *dsl.Thread, tid dsl.U32) {
		for j := range TileSize / tileThreads {
			p := dsl.Let(t, first.Add(dsl.N(uint32(j*tileThreads))).Add(tid))
			t.If(p.Lt(out.Len()), func(t *dsl.Thread) {
				out.Store(t, p.Exp, v0.Add(arrays.UpperBound(t, runs, p.Exp)).Add(lo))
			})
		}
	})
}

// scanTile has block b write the same tile by marking the start of every
// run in marks (shared, TileSize long) and max-scanning them.
func scanTile(b *dsl.Block, pos, out, marks dsl.Array[uint32], first, v0, v1, lo dsl.U32) {
	b.ForAll(dsl.N(TileSize), func(t *dsl.Thread, j dsl.U32) {
		marks.Store(t, j, dsl.Select(j.Eq(dsl.N(0)), v0, dsl.N(0)))
	})
	b.Sync()
	// Every v in (v0, v1] has pos[v] in (first, first+TileSize].
	b.ForAll(v1.Sub(v0), func(t *dsl.Thread, i dsl.U32) {
		v := dsl.Let(t, v0.Add(i).Add(dsl.N(1)))
		at := dsl.Let(t, pos.At(v.Exp))
		t.If(at.Lt(pos.At(v.Add(dsl.N(1)))).And(at.Sub(first).Lt(dsl.N(TileSize))), func(t *dsl.Thread) {
			marks.Store(t, at.Sub(first), v.Exp)
		})
	})
	b.Sync()
	arrays.Scan[*dsl.Block](dsl.U32.Max, arrays.FromArray(marks)).Run(b, marks.Store)
	b.Sync()
	b.ForAll(dsl.N(TileSize), func(t *dsl.Thread, j dsl.U32) {
		p := dsl.Let(t, first.Add(j))
		t.If(p.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, p.Exp, marks.At(j).Add(lo)) })
	})
}
