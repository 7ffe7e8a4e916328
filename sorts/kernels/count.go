package kernels

import (
	"github.com/obsidian-go/obsidian/dsl"
)

// A key k is counted in bin k-lo. A key outside [lo, lo+len(bins)) sets
// bad[0] to 1 and touches no bin: the host reports it as an error.

// inRange runs ok with the key's bin when key-lo is a bin of bins, and sets
// the bad flag otherwise.
func inRange(t *dsl.Thread, key, lo dsl.U32, bins dsl.U32, bad dsl.Array[uint32], ok func(t *dsl.Thread, bin dsl.U32)) {
	bin := dsl.Let(t, key.Sub(lo))
	t.IfElse(bin.Lt(bins), func(t *dsl.Thread) { ok(t, bin.Exp) }, func(t *dsl.Thread) {
		bad.StoreSame(t, dsl.N(0), dsl.N(1))
	})
}

// perKeyKernel returns a kernel called name that runs mark for the bin of
// every key in [lo, lo+len(bins)) and flags the others.
func perKeyKernel(name string, mark func(t *dsl.Thread, bins dsl.Array[uint32], bin dsl.U32)) *dsl.Kernel {
	k := dsl.NewKernel(name, 256)
	keys := dsl.Input[uint32](k, "keys")
	lo := dsl.Param[uint32](k, "lo")
	bins := dsl.Output[uint32](k, "bins")
	bad := dsl.Output[uint32](k, "bad")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(keys.Len(), func(t *dsl.Thread, i dsl.U32) {
			inRange(t, keys.At(i), lo, bins.Len(), bad, func(t *dsl.Thread, bin dsl.U32) { mark(t, bins, bin) })
		})
	})
	return k
}

// HistogramKernel returns the kernel that counts the keys in bins
// (atomicInc per key, as in the paper), which the host zeroes first.
func HistogramKernel() *dsl.Kernel {
	return perKeyKernel("histogram", func(t *dsl.Thread, bins dsl.Array[uint32], bin dsl.U32) {
		bins.Atomic(t, dsl.AtomicInc, bin, dsl.Lit(^uint32(0)))
	})
}

// OccursKernel returns the kernel that writes a 1 at the bin of every key:
// many threads may write the 1 at one bin, with no atomics.
func OccursKernel() *dsl.Kernel {
	return perKeyKernel("occurs", func(t *dsl.Thread, bins dsl.Array[uint32], bin dsl.U32) {
		bins.StoreSame(t, bin, dsl.N(1))
	})
}

// reconstructKernel returns a kernel called name that, for every value v
// of the positions pos (the exclusive prefix sum of the counts, with the
// total appended), runs write with v's run [start, start+count) of out.
func reconstructKernel(name string, write func(t *dsl.Thread, out dsl.Array[uint32], start, count, value dsl.U32)) *dsl.Kernel {
	k := dsl.NewKernel(name, 256)
	pos := dsl.Input[uint32](k, "pos")
	lo := dsl.Param[uint32](k, "lo")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(pos.Len().Sub(dsl.N(1)), func(t *dsl.Thread, v dsl.U32) {
			start := dsl.Let(t, pos.At(v))
			write(t, out, start.Exp, pos.At(v.Add(dsl.N(1))).Sub(start.Exp), v.Add(lo))
		})
	})
	return k
}

// ReconstructKernel returns the kernel that rebuilds the sorted keys from
// the positions: value v+lo is written at out[pos[v]], ..., out[pos[v+1]-1],
// by a loop in one thread per value, as in the paper.
func ReconstructKernel() *dsl.Kernel {
	return reconstructKernel("reconstruct", func(t *dsl.Thread, out dsl.Array[uint32], start, count, value dsl.U32) {
		t.For(count, func(t *dsl.Thread, j dsl.U32) { out.Store(t, start.Add(j), value) })
	})
}

// ReconstructOnceKernel returns occurrence sort's reconstruct: each value
// occurs at most once, so a conditional replaces the loop.
func ReconstructOnceKernel() *dsl.Kernel {
	return reconstructKernel("reconstructOnce", func(t *dsl.Thread, out dsl.Array[uint32], start, count, value dsl.U32) {
		t.If(count.Eq(dsl.N(1)), func(t *dsl.Thread) { out.Store(t, start, value) })
	})
}
