package arrays_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// The thesis' pair functions for reduce, and one that is not commutative.
func addPair(a, b dsl.U32) (dsl.U32, dsl.U32)  { return a.Add(b), b }
func maxPair(a, b dsl.U32) (dsl.U32, dsl.U32)  { return a.Max(b), b }
func lastPair(a, b dsl.U32) (dsl.U32, dsl.U32) { return b, b }

// reduced runs ReducePairs with f over in at block level and returns
// element 0 of the result.
func reduced(t *testing.T, f arrays.TwoSorter[uint32], in []uint32) uint32 {
	t.Helper()
	return runBlock(t, func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
		return arrays.ReducePairs(b, f, a)
	}, in)[0]
}

// TestReducePairs checks the thesis' reduce2 against Go (its
// prop_reduceOk): the sum (wrapping), the largest element, and the last
// element, which only a reduction that keeps the elements' order finds.
func TestReducePairs(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 25))
	props.Property("reduce addpair = sum, maxpair = max, lastpair = last", prop.ForAll(func(n int, seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, 0x2ed))
		in := make([]uint32, n)
		var sum uint32
		for i := range in {
			in[i] = r.Uint32()
			sum += in[i]
		}
		return reduced(t, addPair, in) == sum && reduced(t, maxPair, in) == slices.Max(in) &&
			reduced(t, lastPair, in) == in[n-1]
	}, gen.IntRange(1, 600), gen.UInt64()))
	props.TestingRun(t)
}

// reducePairsKernel sums every 512-element chunk of its input (a last short
// one too) with ReducePairs in a block of 128 threads, writing each
// chunk's sum.
func reducePairsKernel() *dsl.Kernel {
	k := dsl.NewKernel("reducePairs", 128)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(512, dsl.N(0), arrays.FromArray(in))
		g.ForAllBlocks(chunks.Len(), func(b *dsl.Block, bid dsl.U32) {
			sum := arrays.ReducePairs(b, addPair, chunks.At(bid))
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				t.If(bid.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, bid, sum.At(dsl.N(0))) })
			})
		})
	})
	return k
}

// TestGPUReducePairs sums chunks of fresh random keys with ReducePairs on
// the GPU and compares every sum with the evaluator's and with Go's.
func TestGPUReducePairs(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 11))
	in := make([]uint32, 512*300+77)
	for i := range in {
		in[i] = r.Uint32()
	}
	chunks := (len(in) + 511) / 512
	got, err := run(gpu, reducePairsKernel(), in, chunks)
	if err != nil {
		t.Fatal(err)
	}
	cpu, err := run(runtime.CPU(), reducePairsKernel(), in, chunks)
	if err != nil {
		t.Fatal(err)
	}
	for c := range chunks {
		var want uint32
		for _, x := range in[c*512 : min(c*512+512, len(in))] {
			want += x
		}
		if got[0][c] != want || cpu[0][c] != want {
			t.Fatalf("chunk %d: GPU %d, evaluator %d, want %d", c, got[0][c], cpu[0][c], want)
		}
	}
}

// TestReducePairsOnTheCPUDevice runs reducePairsKernel on the CPU device, as
// TestGPUReducePairs does on the GPU.
func TestReducePairsOnTheCPUDevice(t *testing.T) {
	r := rand.New(rand.NewPCG(freshSeed(t), 12))
	in := make([]uint32, 512*3+5)
	for i := range in {
		in[i] = r.Uint32()
	}
	got, err := run(runtime.CPU(), reducePairsKernel(), in, 4)
	if err != nil {
		t.Fatal(err)
	}
	for c := range 4 {
		var want uint32
		for _, x := range in[c*512 : min(c*512+512, len(in))] {
			want += x
		}
		if got[0][c] != want {
			t.Fatalf("chunk %d: %d, want %d", c, got[0][c], want)
		}
	}
}
