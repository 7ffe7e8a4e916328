package arrays_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// histogramKernel returns a histogram of its keys into its bins in which
// the lanes of a warp count their keys together (aggregate:
// arrays.WarpAggregate or arrays.WarpAggregateRuns), so that each distinct
// key of a warp costs one atomic add; it counts the atomics too.
func histogramKernel(aggregate func(t *dsl.Thread, op arrays.Op[uint32], key, x, valid dsl.U32) (dsl.Bool,
	dsl.U32)) *dsl.Kernel {
	k := dsl.NewKernel("histogram", 64)
	keys := dsl.Input[uint32](k, "keys")
	bins, atomics := dsl.InOut[uint32](k, "bins"), dsl.InOut[uint32](k, "atomics")
	k.Body(func(g *dsl.Grid) {
		n := keys.Len()
		g.ForAllBlocks(dsl.CeilDiv(n, dsl.N(64)), func(b *dsl.Block, bid dsl.U32) {
			b.ForAll(dsl.N(64), func(t *dsl.Thread, tid dsl.U32) {
				i := bid.Mul(dsl.N(64)).Add(tid)
				key := dsl.Select(i.Lt(n), keys.At(i), dsl.N(0))
				leader, count := aggregate(t, dsl.U32.Add, key, dsl.N(1), arrays.LanesBelow(n, i))
				t.If(leader, func(t *dsl.Thread) {
					bins.Atomic(t, dsl.AtomicAdd, key, count)
					atomics.Atomic(t, dsl.AtomicAdd, dsl.N(0), dsl.N(1))
				})
			})
		})
	})
	return k
}

// histogram runs histogramKernel on the CPU and prints the bins and the
// number of atomics.
func histogram(k *dsl.Kernel, keys []uint32, bins int) {
	kernel, err := k.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	dev := runtime.CPU()
	fn, err := dev.Load(kernel)
	if err != nil {
		fmt.Println(err)
		return
	}
	keysb, _ := runtime.FromSlice(dev, keys)
	binsb, _ := runtime.FromSlice(dev, make([]uint32, bins))
	atomicsb, _ := runtime.FromSlice(dev, []uint32{0})
	if err := dev.Launch(fn, runtime.LaunchConfig{}, keysb, binsb, atomicsb); err != nil {
		fmt.Println(err)
		return
	}
	got, _ := binsb.ToSlice()
	atomics, _ := atomicsb.ToSlice()
	fmt.Println(got, "from", len(keys), "keys in", atomics[0], "atomics")
}

// A histogram of 100 keys in any order, the lanes of each warp counting
// their keys together (WarpAggregate with op Add and x 1): a warp makes
// one atomic add per distinct key it holds, 4 per full warp here instead
// of 32.
func ExampleWarpAggregate() {
	keys := make([]uint32, 100)
	for i := range keys {
		keys[i] = uint32(i*i) % 7 // 0, 1, 2 or 4
	}
	histogram(histogramKernel(arrays.WarpAggregate[uint32, uint32]), keys, 7)
	// Output: [15 29 28 0 28 0 0] from 100 keys in 15 atomics
}

// Sorted keys need no MatchAny: WarpAggregateRuns counts the runs of equal
// keys of each warp, one atomic add per run.
func ExampleWarpAggregateRuns() {
	keys := make([]uint32, 100)
	for i := range keys {
		keys[i] = uint32(i / 20) // runs of 20
	}
	histogram(histogramKernel(arrays.WarpAggregateRuns[uint32, uint32]), keys, 5)
	// Output: [20 20 20 20 20] from 100 keys in 8 atomics
}
