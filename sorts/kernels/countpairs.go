package kernels

import (
	"github.com/obsidian-go/obsidian/dsl"
)

// The count sort of Sun and Ma ("Count Sort for GPU Computing"), for
// (key, value) pairs: its four steps are
//
//	1. c[k] = 0 for every k                    (the host fills the counts)
//	2. c[key[i]-lo]++ for every i, atomically  (the library's histogram)
//	3. c = exclusive prefix sums of c          (the library's scan)
//	4. r = c[key[i]-lo]++ atomically; b[r] = (key[i], value[i])
//
// Step 4 is CountPairsScatterKernel. The threads of a key take their ranks
// in the order their atomics land, so the sort is not stable, as the
// paper says.

// CountPairsScatterKernel returns step 4 of the count sort: every pair
// (keys[i], vals[i]) whose key lies in [lo, lo+len(starts)) takes the next
// free position of its key, starts[key-lo], with an atomic add, and writes
// its key and value there. starts holds the exclusive prefix sums of the
// keys' counts; a key outside the range (which the histogram reported) is
// skipped.
func CountPairsScatterKernel() *dsl.Kernel {
	k := dsl.NewKernel("countPairsScatter", 256)
	keys := dsl.Input[uint32](k, "keys")
	vals := dsl.Input[uint32](k, "vals")
	lo := dsl.Param[uint32](k, "lo")
	starts := dsl.InOut[uint32](k, "starts")
	outKeys := dsl.Output[uint32](k, "outKeys")
	outVals := dsl.Output[uint32](k, "outVals")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(keys.Len(), func(t *dsl.Thread, i dsl.U32) {
			key := dsl.Let(t, keys.At(i))
			bin := dsl.Let(t, key.Sub(lo))
			t.If(bin.Lt(starts.Len()), func(t *dsl.Thread) {
				r := dsl.Let(t, starts.Fetch(t, dsl.AtomicAdd, bin.Exp, dsl.N(1)))
				outKeys.Store(t, r.Exp, key.Exp)
				outVals.Store(t, r.Exp, vals.At(i))
			})
		})
	})
	return k
}
