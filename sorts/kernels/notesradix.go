package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// The LSD radix sort of the radix sort notes, one pass per digit of
// digitBits bits (1, 2 or 4), from the least significant:
//
//	local sort (NotesRadixLocalKernel), for every tile of the keys:
//	  for every digit value d:
//	    mask[i] = 1 where key i's digit is d, 0 elsewhere
//	    scan, count = Blelloch's exclusive scan of mask, its total
//	    the keys of digit d take ranks offset + scan[i]; offset += count
//	  the tile, sorted by digit (stably), and each digit's count and
//	  offset in the tile
//	scan of the counts, digit by digit and tile by tile (the library's)
//	scatter (NotesRadixScatterKernel): key j of its sorted tile goes to
//	  the digit's start in the tile's scanned count + j - the digit's
//	  offset in the tile
//
// The local sort puts each digit's keys of a tile side by side, so that
// the scatter writes runs of consecutive addresses (coalesced), as the
// notes explain.

// NotesRadixThreads is the block size of the notes' radix sort, and
// NotesRadixTile the keys each block sorts locally: two per thread, as
// Blelloch's scan has a thread per pair.
const (
	NotesRadixThreads = 256
	NotesRadixTile    = 2 * NotesRadixThreads
)

// digitOf returns the digit of key at shift, of bits bits.
func digitOf(key, shift, bits dsl.U32) dsl.U32 {
	return key.Shr(shift).And(dsl.N(1).Shl(bits).Sub(dsl.N(1)))
}

// NotesRadixLocalKernel returns the local sort of a radix sort pass: every
// block sorts a tile of NotesRadixTile keys by the digit of bits bits at
// shift (stably) into tiles, and writes the digit counts of its tile,
// digit-major (counts[d*tiles + tile]), and the digits' offsets in it,
// tile-major (offsets[tile*2^bits + d]).
func NotesRadixLocalKernel() *dsl.Kernel {
	k := dsl.NewKernel("notesRadixLocal", NotesRadixThreads)
	keys := dsl.Input[uint32](k, "keys")
	shift := dsl.Param[uint32](k, "shift")
	bits := dsl.Param[uint32](k, "bits")
	tiles := dsl.Output[uint32](k, "tiles")
	counts := dsl.Output[uint32](k, "counts")
	offsets := dsl.Output[uint32](k, "offsets")
	k.Body(func(g *dsl.Grid) {
		blocks := dsl.CeilDiv(keys.Len(), dsl.N(NotesRadixTile))
		radix := dsl.N(1).Shl(bits)
		g.ForAllBlocks(blocks, func(b *dsl.Block, tile dsl.U32) {
			base := dsl.Let(b, tile.Mul(dsl.N(NotesRadixTile)))
			m := dsl.Let(b, keys.Len().Sub(base.Exp).Min(dsl.N(NotesRadixTile))) // the tile's keys
			key := arrays.Compute(b, arrays.Generate(dsl.N(NotesRadixTile), func(i dsl.U32) dsl.U32 {
				return dsl.Select(i.Lt(m.Exp), keys.At(base.Add(i)), dsl.N(0))
			}))
			has := func(i, d dsl.U32) dsl.Bool { return i.Lt(m.Exp).And(digitOf(key.At(i), shift, bits).Eq(d)) }
			rank := dsl.Shared[uint32](b, NotesRadixTile)
			offset := dsl.Let(b, dsl.N(0))
			b.For(radix, func(b *dsl.Block, d dsl.U32) {
				mask := arrays.Generate(dsl.N(NotesRadixTile), func(i dsl.U32) dsl.U32 {
					return dsl.Select(has(i, d), dsl.N(1), dsl.N(0))
				})
				scan, count := arrays.BlellochScan(b, dsl.U32.Add, dsl.N(0), mask)
				b.ForAll(dsl.N(NotesRadixTile), func(t *dsl.Thread, i dsl.U32) {
					t.If(has(i, d), func(t *dsl.Thread) { rank.Store(t, i, offset.Add(scan.At(i))) })
				})
				b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
					counts.Store(t, d.Mul(blocks).Add(tile), count)
					offsets.Store(t, tile.Mul(radix).Add(d), offset.Exp)
				})
				offset.Set(offset.Add(count))
				b.Sync() // every thread has read this digit's scan before the next digit's overwrites it
			})
			b.ForAll(m.Exp, func(t *dsl.Thread, i dsl.U32) {
				tiles.Store(t, base.Add(rank.At(i)), key.At(i))
			})
		})
	})
	return k
}

// NotesRadixScatterKernel returns the scatter of a radix sort pass: key j
// of the locally sorted tiles, of digit d in tile b, goes to out at
// starts[d*tiles + b] (the exclusive scan of the counts) plus its place
// among the tile's keys of digit d, j - b*NotesRadixTile -
// offsets[b*2^bits + d].
func NotesRadixScatterKernel() *dsl.Kernel {
	k := dsl.NewKernel("notesRadixScatter", NotesRadixThreads)
	tiles := dsl.Input[uint32](k, "tiles")
	shift := dsl.Param[uint32](k, "shift")
	bits := dsl.Param[uint32](k, "bits")
	starts := dsl.Input[uint32](k, "starts")
	offsets := dsl.Input[uint32](k, "offsets")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		blocks := dsl.CeilDiv(tiles.Len(), dsl.N(NotesRadixTile))
		g.ForAll(tiles.Len(), func(t *dsl.Thread, j dsl.U32) {
			tile := dsl.Let(t, j.Div(dsl.N(NotesRadixTile)))
			key := dsl.Let(t, tiles.At(j))
			d := dsl.Let(t, digitOf(key.Exp, shift, bits))
			start := starts.At(d.Mul(blocks).Add(tile.Exp))
			inTile := j.Sub(tile.Mul(dsl.N(NotesRadixTile))).Sub(offsets.At(tile.Mul(dsl.N(1).Shl(bits)).Add(d.Exp)))
			out.Store(t, start.Add(inTile), key.Exp)
		})
	})
	return k
}
