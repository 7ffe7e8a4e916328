package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// The fast pipeline's scan, reduce-then-scan: the input is cut into tiles
// of ScanTile elements; a first kernel writes every tile's total, the
// totals are scanned (by the same scan: one tile, or recursively), and a
// second kernel scans every tile again from the total of the tiles before
// it. Each element is read twice and written once, in three launches for
// up to ScanTile^2 elements.
//
// A block holds one tile. Its threads load the tile with coalesced reads
// (row j is the scanThreads elements j*scanThreads + tid) into shared
// memory; each thread then scans its scanPerThread consecutive elements
// in registers, a warp scans its threads' totals with shuffles, and the
// block writes the tile back, again by rows, adding the warps' totals
// before each row: the threads' totals are scanned by arrays.WarpTotals.

const (
	scanThreads   = 256
	scanPerThread = 16
	// ScanTile is the number of elements a block of the fast scan scans.
	ScanTile  = scanThreads * scanPerThread
	scanWarps = scanThreads / ir.WarpSize
	// scanRowStride is the distance in shared memory between rows of a
	// tile: scanThreads elements and their padding.
	scanRowStride = scanThreads + scanWarps
	// scanRowsPerWarp is the number of rows a warp's elements fill.
	scanRowsPerWarp = ir.WarpSize * scanPerThread / scanThreads
)

// padded returns the shared-memory index of tile element i: a word of
// padding after every ir.WarpSize elements, so that a warp reading a row
// (consecutive elements) and a warp whose threads each read their own
// scanPerThread consecutive elements both touch distinct banks. Neither a
// row nor a thread's elements cross a padding word, so row j of the tile
// starts at j*scanRowStride and thread t's elements at
// padded(t*scanPerThread).
func padded(i dsl.U32) dsl.U32 { return i.Add(dsl.WarpOf(i)) }

// rowLoad returns element j*scanThreads + tid of the tile at first in a,
// or 0 past its end.
func rowLoad(a dsl.Array[uint32], first, tid, j dsl.U32) dsl.U32 {
	ix := first.Add(j.Mul(dsl.N(scanThreads))).Add(tid)
	return dsl.Select(ix.Lt(a.Len()), a.At(ix), dsl.N(0))
}

// TileTotalsKernel returns the first kernel of the fast scan: totals[t] is
// the sum (modulo 2^32) of the ScanTile elements of tile t of in, a
// partial last tile padded with zeros. The host gives totals one element
// per tile.
func TileTotalsKernel() *dsl.Kernel {
	k := dsl.NewKernel("scanTileTotals", scanThreads)
	in := dsl.Input[uint32](k, "input")
	totals := dsl.Output[uint32](k, "totals")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(totals.Len(), func(b *dsl.Block, tile dsl.U32) {
			first := dsl.Let(b, tile.Mul(dsl.N(ScanTile)))
			warps := arrays.NewWarpTotals(b, dsl.U32.Add)
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				rows := arrays.Generate(dsl.N(scanPerThread), func(j dsl.U32) dsl.U32 { return rowLoad(in, first.Exp, tid, j) })
				warps.Scan(t, tid, arrays.Fold(t, dsl.U32.Add, dsl.N(0), rows))
			})
			b.Sync()
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { totals.Store(t, tile, warps.Total(t)) })
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
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), dsl.N(ScanTile)), func(b *dsl.Block, tile dsl.U32) {
			first := dsl.Let(b, tile.Mul(dsl.N(ScanTile)))
			tileSh := dsl.Shared[uint32](b, scanPerThread*scanRowStride)
			warps := arrays.NewWarpTotals(b, dsl.U32.Add)
			// Rows in: row j of the tile at padded(tid) + j*scanRowStride.
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				at := dsl.Let(t, padded(tid))
				for j := range scanPerThread {
					tileSh.Store(t, at.Add(dsl.N(uint32(j*scanRowStride))), rowLoad(in, first.Exp, tid, dsl.N(uint32(j))))
				}
			})
			b.Sync()
			// Each thread scans its elements tid*scanPerThread + e, from the
			// total of the lanes before it in its warp.
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				at := dsl.Let(t, padded(tid.Mul(dsl.N(scanPerThread))))
				run := arrays.Compute(t, arrays.Generate(dsl.N(scanPerThread), func(e dsl.U32) dsl.U32 { return tileSh.At(at.Add(e)) }))
				mine := dsl.Let(t, arrays.Fold(t, dsl.U32.Add, dsl.N(0), run))
				before := dsl.Let(t, warps.Scan(t, tid, mine.Exp).Sub(mine.Exp))
				// The thread's running sum from the total of the threads before it.
				arrays.MapAccum(t, func(acc, x dsl.U32) (dsl.U32, dsl.U32) { sum := acc.Add(x); return sum, sum }, before.Exp, run,
					func(t *dsl.Thread, e dsl.U32, v dsl.U32) { tileSh.Store(t, at.Add(e), v) })
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
						before.Set(before.Add(warps.Warp(dsl.N(uint32(j/scanRowsPerWarp - 1)))))
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
