package kernels

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// fan adds the last element of the first half of a to every element of the
// second half: one level of Sklansky's network.
func fan(a arrays.Pull[uint32]) arrays.Pull[uint32] {
	a1, a2 := arrays.Halve(a)
	last := arrays.Last(a1)
	return arrays.Append(a1, arrays.Map(a2, func(x dsl.U32) dsl.U32 { return x.Add(last) }))
}

// Sklansky is the inclusive prefix sum of the 2^n elements of a in one block:
// n levels, each one step through shared memory (the paper's figure 8).
func Sklansky(b *dsl.Block, n int, a arrays.Pull[uint32]) arrays.Pull[uint32] {
	for i := 0; i < n; i++ {
		a = arrays.Compute(b, arrays.BinSplit(n-1-i, fan, a))
	}
	return a
}

// SklanskyMax is Sklansky that also returns the block's total, its last
// element.
func SklanskyMax(b *dsl.Block, n int, a arrays.Pull[uint32]) (arrays.Pull[uint32], dsl.U32) {
	r := Sklansky(b, n, a)
	return r, arrays.Last(r)
}

// threadsFor returns the block size for 2^logN elements: one thread per
// element, at most 1024.
func threadsFor(logN int) int { return min(1<<logN, 1024) }

// SklanskyKernel returns the kernel that scans every 2^logN-element chunk
// of in (inclusive prefix sums, a partial last chunk padded with zeros)
// into out, one block per chunk.
func SklanskyKernel(logN int) *dsl.Kernel {
	return chunkScanKernel(fmt.Sprintf("sklansky%d", 1<<logN), logN, false)
}

// ScanKernel returns the sklanskyMax kernel: SklanskyKernel that also
// writes each chunk's total to maxs[chunk], the first step of a scan longer
// than a block (the paper's figure 8).
func ScanKernel(logN int) *dsl.Kernel {
	return chunkScanKernel(fmt.Sprintf("sklanskyMax%d", 1<<logN), logN, true)
}

func chunkScanKernel(name string, logN int, totals bool) *dsl.Kernel {
	size := uint32(1) << logN
	k := dsl.NewKernel(name, threadsFor(logN))
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	var maxs dsl.Array[uint32]
	if totals {
		maxs = dsl.Output[uint32](k, "maxs")
	}
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(size, dsl.N(0), arrays.FromArray(in))
		g.ForAllBlocks(chunks.Len(), func(b *dsl.Block, bid dsl.U32) {
			r, total := SklanskyMax(b, logN, chunks.At(bid))
			base := bid.Mul(dsl.N(size))
			b.ForAll(dsl.N(size), func(t *dsl.Thread, i dsl.U32) {
				ix := base.Add(i)
				t.If(ix.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, ix, r.At(i)) })
			})
			if totals {
				b.ForAll(dsl.N(1), func(t *dsl.Thread, i dsl.U32) { maxs.Store(t, bid, total) })
			}
		})
	})
	return k
}

// DistributeKernel returns the kernel that adds, to every element of
// chunk c of data (chunks of 2^logN elements), the inclusive scan of the
// chunk totals up to chunk c-1: the last step of a scan longer than a block
// (the paper's distribute). It runs in place.
func DistributeKernel(logN int) *dsl.Kernel {
	k := dsl.NewKernel("distribute", 256)
	sums := dsl.Input[uint32](k, "sums")
	data := dsl.InOut[uint32](k, "data")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(data.Len(), func(t *dsl.Thread, i dsl.U32) {
			c := i.Shr(dsl.N(uint32(logN)))
			t.If(c.Gt(dsl.N(0)), func(t *dsl.Thread) {
				data.Store(t, i, data.At(i).Add(sums.At(c.Sub(dsl.N(1)))))
			})
		})
	})
	return k
}
