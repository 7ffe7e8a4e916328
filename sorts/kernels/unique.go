package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Unique: the first key of each run of equal keys of a sorted array (keys
// equal when their bits are: -0 and +0 differ, a NaN equals only the NaN
// of the same bits), kept in order. The array is cut into tiles of
// UniqueTile keys; UniqueCountsKernel counts the run starts of every tile
// (PartitionCount at Block level), the host scans the counts, and
// UniqueKernel writes each tile's run starts from the total of the tiles
// before it (PartitionRanks and ScatterByRank).

const (
	// UniqueTile is the number of keys a block of the unique kernels
	// takes.
	UniqueTile    = uniqueThreads * 16
	uniqueThreads = 256
)

// runStarts returns the positions of tile tile of keys, as a Pull array of
// the tile's length, and whether the key at a position starts a run.
func runStarts[K Key, U uint32 | uint64](b *dsl.Block, keys dsl.Array[K], tile dsl.U32) (arrays.Pull[uint32], func(dsl.U32) dsl.Bool) {
	kb := bitsOf[K, U](Ascending) // equality alone: either order's bits
	first := dsl.Let(b, tile.Mul(dsl.N(UniqueTile))).Exp
	count := dsl.Let(b, keys.Len().Sub(first).Min(dsl.N(UniqueTile))).Exp
	at := arrays.Generate(count, func(i dsl.U32) dsl.U32 { return first.Add(i) })
	starts := func(i dsl.U32) dsl.Bool {
		prev := kb.load(keys.At(i.Max(dsl.N(1)).Sub(dsl.N(1))))
		return i.Eq(dsl.N(0)).Or(kb.load(keys.At(i)).Ne(prev))
	}
	return at, starts
}

// UniqueCountsKernel returns the kernel that writes to counts[t] the
// number of keys of tile t of the sorted keys that start a run. Its
// parameters are keys (Input) and counts (Output, a word per tile).
func UniqueCountsKernel[K Key]() *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return uniqueCounts[K, uint64]() }, func() *dsl.Kernel { return uniqueCounts[K, uint32]() })
}

// uniqueCounts is UniqueCountsKernel with U the bits of K.
func uniqueCounts[K Key, U uint32 | uint64]() *dsl.Kernel {
	k := dsl.NewKernel("uniqueCounts_"+keyName[K](), uniqueThreads)
	keys := dsl.Input[K](k, "keys")
	counts := dsl.Output[uint32](k, "counts")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(keys.Len(), dsl.N(UniqueTile)), func(b *dsl.Block, tile dsl.U32) {
			at, starts := runStarts[K, U](b, keys, tile)
			arrays.PartitionCount[*dsl.Block](starts, at).Run(b, func(t *dsl.Thread, _, v dsl.U32) { counts.Store(t, tile, v) })
		})
	})
	return k
}

// UniqueKernel returns the kernel that writes the keys that start a run of
// the sorted keys to the front of out, in order, from the exclusive scan
// pos of UniqueCountsKernel's counts (a word per tile and one more). Its
// parameters are keys (Input), pos (Input) and out (Output, not keys).
func UniqueKernel[K Key]() *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return unique[K, uint64]() }, func() *dsl.Kernel { return unique[K, uint32]() })
}

// unique is UniqueKernel with U the bits of K.
func unique[K Key, U uint32 | uint64]() *dsl.Kernel {
	k := dsl.NewKernel("unique_"+keyName[K](), uniqueThreads)
	keys := dsl.Input[K](k, "keys")
	pos := dsl.Input[uint32](k, "pos")
	out := dsl.Output[K](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(keys.Len(), dsl.N(UniqueTile)), func(b *dsl.Block, tile dsl.U32) {
			at, starts := runStarts[K, U](b, keys, tile)
			base := dsl.Let(b, pos.At(tile)).Exp
			kept := dsl.Let(b, pos.At(tile.Add(dsl.N(1))).Sub(base)).Exp
			ranks := arrays.PartitionRanks[*dsl.Block](starts, at)
			arrays.ScatterByRank(ranks, arrays.Map(at, keys.At)).Run(b, func(t *dsl.Thread, r dsl.U32, v dsl.Exp[K]) {
				t.If(r.Lt(kept), func(t *dsl.Thread) { out.Store(t, base.Add(r), v) })
			})
		})
	})
	return k
}
