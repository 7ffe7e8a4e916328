package thesis

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/networks"
)

// blockKernel returns a kernel that applies f to every n-element chunk of
// in (a partial last chunk padded with pad) in a block of n threads, writing
// the results to out.
func blockKernel(name string, n uint32, pad dsl.U32, f func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32]) *dsl.Kernel {
	return blockBody(dsl.NewKernel(name, int(n)), n, pad, f)
}

// blockBody gives k, a kernel of n threads per block, blockKernel's
// parameters and body.
func blockBody(k *dsl.Kernel, n uint32, pad dsl.U32, f func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32]) *dsl.Kernel {
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(n, pad, arrays.FromArray(in))
		arrays.WriteTo(g, out, arrays.MapBlocks(chunks, n, func(b *dsl.Block, _ dsl.U32, part arrays.Pull[uint32]) arrays.Push[*dsl.Block, uint32] {
			return arrays.ToPush[*dsl.Block](f(b, part))
		}))
	})
	return k
}

// Rev is the thesis' `rev ->- sync`: every n-element chunk reversed through
// shared memory.
func Rev(n uint32) *dsl.Kernel {
	return blockKernel(fmt.Sprintf("rev%d", n), n, dsl.N(0), func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
		return arrays.Compute(b, arrays.Reverse(arrays.Compute(b, a)))
	})
}

// TwoRev is the thesis' `two rev ->- sync`: each half of every chunk
// reversed. (Its forbidden sibling, `two (rev ->- sync)`, puts a barrier
// under a thread-dependent condition; the library rejects it.)
func TwoRev(n uint32) *dsl.Kernel {
	return blockKernel(fmt.Sprintf("tworev%d", n), n, dsl.N(0), func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
		return arrays.Compute(b, arrays.Two(arrays.Reverse[uint32], arrays.Compute(b, a)))
	})
}

// RiffleTab is the thesis' `tblLook rifftab ->- sync`, the first step of
// each round of its shexT: every n-element chunk riffled (its halves
// interleaved) by a table of indices that the kernel holds in constant
// memory, as the thesis' executeTab holds its tables.
func RiffleTab(n uint32) *dsl.Kernel {
	k := dsl.NewKernel(fmt.Sprintf("riffleTab%d", n), int(n))
	rifftab := arrays.FromArray(dsl.ConstTable(k, "rifftab", networks.RiffleTable(int(n))))
	return blockBody(k, n, dsl.N(0), func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
		return arrays.Compute(b, arrays.TblLook(rifftab, a))
	})
}

// cmpSwap is the two-sorter: the smaller value first.
func cmpSwap(x, y dsl.U32) (dsl.U32, dsl.U32) { return x.Min(y), x.Max(y) }

// OddEvenSort is the thesis' odd-even transposition sort of every n-element
// chunk: n/2 rounds of evens then odds, each through shared memory, in a
// block-level loop over two shared arrays (and one more evens for odd n).
// A partial last chunk is padded with the largest key, so it sorts to the
// chunk's end and is not written.
func OddEvenSort(n uint32) *dsl.Kernel {
	return blockKernel(fmt.Sprintf("oddEvenSort%d", n), n, dsl.Lit(^uint32(0)), func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
		x := dsl.Shared[uint32](b, int(n))
		y := dsl.Shared[uint32](b, int(n))
		arrays.ComputeInto(b, x, a)
		b.For(dsl.N(n/2), func(b *dsl.Block, _ dsl.U32) {
			ev := arrays.ComputeInto(b, y, arrays.Evens(cmpSwap, arrays.FromArray(x)))
			arrays.ComputeInto(b, x, arrays.Odds(cmpSwap, ev))
		})
		if n%2 == 1 {
			return arrays.Compute(b, arrays.Evens(cmpSwap, arrays.FromArray(x)))
		}
		return arrays.FromArray(x)
	})
}
