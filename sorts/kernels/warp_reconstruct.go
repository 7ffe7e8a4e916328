package kernels

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// A word has a bit per lane of a warp: lane b of BitsReconstructWarpKernel
// writes the value of bit b.
var _ [wordBits - ir.WarpSize]struct{} = [ir.WarpSize - wordBits]struct{}{}

// BitsReconstructWarpKernel returns occurrence sort's reconstruct from a
// bitset with the writes of a word spread over a warp: the warp of words
// j0 ... j0+ir.WarpSize-1 takes them one by one, and lane b writes
// lo + wordBits*j + b, when bit b of word j is set, at out[pos[j] + (the
// bits of the word below b)].
// The values of a word are then written by one store of the warp to
// consecutive addresses, where BitsReconstructKernel has each thread
// write its own word's values and a warp store touch a line per lane.
func BitsReconstructWarpKernel() *dsl.Kernel {
	k := dsl.NewKernel("reconstructBitsWarp", warpTableThreads)
	set := dsl.Input[uint32](k, "bits")
	pos := dsl.Input[uint32](k, "pos")
	lo := dsl.Param[uint32](k, "lo")
	out := dsl.Output[uint32](k, "out")
	threads := dsl.N(warpTableThreads)
	blocks := dsl.CeilDiv(set.Len(), threads)
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(blocks, func(b *dsl.Block, blk dsl.U32) {
			b.ForAll(threads, func(t *dsl.Thread, tid dsl.U32) {
				// Words number at most 2^25, so the indices do not wrap.
				j := dsl.Let(t, blk.Mul(threads).Add(tid))
				in := dsl.Let(t, j.Lt(set.Len()))
				word := dsl.Let(t, dsl.Select(in.Exp, set.At(j.Exp), dsl.N(0)))
				at := dsl.Let(t, dsl.Select(in.Exp, pos.At(j.Exp), dsl.N(0)))
				lane := dsl.Let(t, dsl.LaneOf(tid))
				below := dsl.Let(t, dsl.N(1).Shl(lane.Exp).Sub(dsl.N(1)))
				firstWord := dsl.Let(t, j.Sub(lane.Exp))
				t.For(dsl.N(ir.WarpSize), func(t *dsl.Thread, w dsl.U32) {
					bitsOf := dsl.Let(t, dsl.Shuffle(t, dsl.ShuffleIdx, word.Exp, w))
					start := dsl.Let(t, dsl.Shuffle(t, dsl.ShuffleIdx, at.Exp, w))
					t.If(bitsOf.Shr(lane.Exp).And(dsl.N(1)).Ne(dsl.N(0)), func(t *dsl.Thread) {
						value := lo.Add(firstWord.Add(w).Shl(dsl.N(wordLog))).Add(lane.Exp)
						out.Store(t, start.Add(bitsOf.And(below.Exp).PopCount()), value)
					})
				})
			})
		})
	})
	return k
}
