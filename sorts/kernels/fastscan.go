package sorts

import (
	"github.com/obsidian-go/obsidian/dsl"
)

// The fast pipeline's scan, reduce-then-scan: the input is cut into tiles
// of scanTile elements; a first kernel writes every tile's total, the
// totals are scanned (by the same scan: one tile, or recursively), and a
// second kernel scans every tile again from the total of the tiles before
// it. Each element is read twice and written once, in three launches for
// up to scanTile^2 elements.
//
// A block holds one tile. Its threads load the tile with coalesced reads
// (row j is the scanThreads elements j*scanThreads + tid) into shared
// memory; each thread then scans its scanPerThread consecutive elements
// in registers, a warp scans its threads' totals with shuffles, and the
// block writes the tile back, again by rows, adding the warps' totals
// before each row.

const (
	scanThreads   = 256
	scanPerThread = 16
	scanTile      = scanThreads * scanPerThread
	scanWarps     = scanThreads / warpSize
	warpSize      = 32
	// scanRowStride is the distance in shared memory between rows of a
	// tile: scanThreads elements and their padding.
	scanRowStride = scanThreads + scanThreads/warpSize
	// scanRowsPerWarp is the number of rows a warp's elements fill.
	scanRowsPerWarp = warpSize * scanPerThread / scanThreads
)

// padded returns the shared-memory index of tile element i: a word of
// padding after every warpSize elements, so that a warp reading a row
// (consecutive elements) and a warp whose threads each read their own
// scanPerThread consecutive elements both touch distinct banks. Neither a
// row nor a thread's elements cross a padding word, so row j of the tile
// starts at j*scanRowStride and thread t's elements at
// padded(t*scanPerThread).
func padded(i dsl.U32) dsl.U32 { return i.Add(i.Shr(dsl.N(5))) }

// tilesOf returns the number of tiles of n elements, rounded up, without
// overflow.
func tilesOf(n dsl.U32) dsl.U32 {
	return n.Div(dsl.N(scanTile)).Add(dsl.Cast[uint32](n.Rem(dsl.N(scanTile)).Ne(dsl.N(0))))
}

// rowLoad returns element j*scanThreads + tid of the tile at first in a,
// or 0 past its end.
func rowLoad(a dsl.Array[uint32], first, tid dsl.U32, j int) dsl.U32 {
	ix := first.Add(dsl.N(uint32(j * scanThreads))).Add(tid)
	return dsl.Select(ix.Lt(a.Len()), a.At(ix), dsl.N(0))
}

// warpInclusiveScan returns, in every lane, the sum of x over the lanes up
// to it: five shuffles up. Every lane of the warp must call it.
func warpInclusiveScan(t *dsl.Thread, lane, x dsl.U32) dsl.U32 {
	v := dsl.Let(t, x)
	for d := uint32(1); d < warpSize; d *= 2 {
		below := dsl.Shuffle(t, dsl.ShuffleUp, v.Exp, dsl.N(d))
		v.Set(v.Add(dsl.Select(lane.Ge(dsl.N(d)), below, dsl.N(0))))
	}
	return v.Exp
}

// TileTotalsKernel returns the first kernel of the fast scan: totals[t] is
// the sum (modulo 2^32) of the scanTile elements of tile t of in, a
// partial last tile padded with zeros. The host gives totals one element
// per tile.
func TileTotalsKernel() *dsl.Kernel {
	k := dsl.NewKernel("scanTileTotals", scanThreads)
	in := dsl.Input[uint32](k, "input")
	totals := dsl.Output[uint32](k, "totals")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(totals.Len(), func(b *dsl.Block, tile dsl.U32) {
			first := dsl.Let(b, tile.Mul(dsl.N(scanTile)))
			warpTotals := dsl.Shared[uint32](b, scanWarps)
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				sum := rowLoad(in, first.Exp, tid, 0)
				for j := 1; j < scanPerThread; j++ {
					sum = sum.Add(rowLoad(in, first.Exp, tid, j))
				}
				lane := dsl.Let(t, tid.And(dsl.N(warpSize-1)))
				warpSum := dsl.Let(t, warpInclusiveScan(t, lane.Exp, dsl.Let(t, sum).Exp))
				t.If(lane.Eq(dsl.N(warpSize-1)), func(t *dsl.Thread) {
					warpTotals.Store(t, tid.Shr(dsl.N(5)), warpSum.Exp)
				})
			})
			b.Sync()
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				total := warpTotals.At(dsl.N(0))
				for w := uint32(1); w < scanWarps; w++ {
					total = total.Add(warpTotals.At(dsl.N(w)))
				}
				totals.Store(t, tile, total)
			})
		})
	})
	return k
}

// TileScanKernel returns the second kernel of the fast scan: out gets the
// inclusive prefix sums of in (modulo 2^32), tile t starting from
// sums[t-1], where sums is the inclusive scan of the tiles' totals (read
// only for tiles after the first, so a single tile needs no totals). out
// may be in: every block reads its whole tile before writing it.
func TileScanKernel() *dsl.Kernel {
	k := dsl.NewKernel("scanTiles", scanThreads)
	in := dsl.Input[uint32](k, "input")
	sums := dsl.Input[uint32](k, "sums")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(tilesOf(in.Len()), func(b *dsl.Block, tile dsl.U32) {
			first := dsl.Let(b, tile.Mul(dsl.N(scanTile)))
			tileSh := dsl.Shared[uint32](b, scanPerThread*scanRowStride)
			warpTotals := dsl.Shared[uint32](b, scanWarps)
			// Rows in: row j of the tile at padded(tid) + j*scanRowStride.
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				at := dsl.Let(t, padded(tid))
				for j := range scanPerThread {
					tileSh.Store(t, at.Add(dsl.N(uint32(j*scanRowStride))), rowLoad(in, first.Exp, tid, j))
				}
			})
			b.Sync()
			// Each thread scans its elements tid*scanPerThread + e, from the
			// total of the lanes before it in its warp.
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				at := dsl.Let(t, padded(tid.Mul(dsl.N(scanPerThread))))
				xs := make([]dsl.U32, scanPerThread)
				total := dsl.N(0)
				for e := range xs {
					xs[e] = dsl.Let(t, tileSh.At(at.Add(dsl.N(uint32(e))))).Exp
					total = total.Add(xs[e])
				}
				mine := dsl.Let(t, total)
				lane := dsl.Let(t, tid.And(dsl.N(warpSize-1)))
				upTo := dsl.Let(t, warpInclusiveScan(t, lane.Exp, mine.Exp))
				run := dsl.Let(t, upTo.Sub(mine.Exp))
				for e, x := range xs {
					run.Set(run.Add(x))
					tileSh.Store(t, at.Add(dsl.N(uint32(e))), run.Exp)
				}
				t.If(lane.Eq(dsl.N(warpSize-1)), func(t *dsl.Thread) {
					warpTotals.Store(t, tid.Shr(dsl.N(5)), upTo.Exp)
				})
			})
			b.Sync()
			// Rows out: a warp's elements are scanRowsPerWarp rows, so row j
			// is raised by the tiles before (sums) and the warps before
			// warp j/scanRowsPerWarp.
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				at := dsl.Let(t, padded(tid))
				before := dsl.Let(t, dsl.Select(tile.Gt(dsl.N(0)), sums.At(tile.Sub(dsl.N(1))), dsl.N(0)))
				for j := range scanPerThread {
					if j > 0 && j%scanRowsPerWarp == 0 {
						before.Set(before.Add(warpTotals.At(dsl.N(uint32(j/scanRowsPerWarp - 1)))))
					}
					ix := dsl.Let(t, first.Add(dsl.N(uint32(j*scanThreads))).Add(tid))
					t.If(ix.Lt(out.Len()), func(t *dsl.Thread) {
						out.Store(t, ix.Exp, tileSh.At(at.Add(dsl.N(uint32(j*scanRowStride)))).Add(before.Exp))
					})
				}
			})
		})
	})
	return k
}
