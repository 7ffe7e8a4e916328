package arrays_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
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

// levelCopies is how many warps and threads levelKernel gives an n-element
// part each.
const levelCopies = 2

// levelKernel computes parts of n elements of its input at every level,
// in a block of 64 threads: the first part at Block level, one part per
// warp at Warp level (two warps), one per thread at Thread level (two
// threads), each copied out by Compute (outputs 0, 1, 2) and, when n is a
// power of two, reduced under o by reduce (outputs 3, 4, 5). The input
// holds 1 + 2 + 2 parts.
func levelKernel(o operator[uint32], n int) *dsl.Kernel {
	k := dsl.NewKernel(fmt.Sprintf("levels%d", n), 64)
	in := dsl.Input[uint32](k, "in")
	outs := make([]dsl.Array[uint32], 6)
	for i := range outs {
		outs[i] = dsl.Output[uint32](k, fmt.Sprintf("out%d", i))
	}
	nn := dsl.N(uint32(n))
	part := func(i dsl.U32) arrays.Pull[uint32] {
		return arrays.Take(nn, arrays.Drop(i.Mul(nn), arrays.FromArray(in)))
	}
	reduces := bits.OnesCount(uint(n)) == 1
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			arrays.WriteTo(b, outs[0], arrays.ToPush[*dsl.Block](arrays.Compute(b, part(dsl.N(0)))))
			if reduces {
				arrays.WriteTo(b, outs[3], reduce(b, o.op, part(dsl.N(0))))
			}
			b.ForAllWarps(dsl.N(levelCopies), func(w *dsl.Warp, wid dsl.U32) {
				c := arrays.Compute(w, part(wid.Add(dsl.N(1))))
				w.ForAll(nn, func(t *dsl.Thread, i dsl.U32) { outs[1].Store(t, wid.Mul(nn).Add(i), c.At(i)) })
				if reduces {
					reduce(w, o.op, part(wid.Add(dsl.N(1)))).Run(w, func(t *dsl.Thread, _ dsl.U32, v dsl.U32) {
						outs[4].Store(t, wid, v)
					})
				}
			})
			b.ForAll(dsl.N(levelCopies), func(t *dsl.Thread, tid dsl.U32) {
				c := arrays.Compute(t, part(tid.Add(dsl.N(1+levelCopies))))
				t.ForAll(nn, func(t *dsl.Thread, i dsl.U32) { outs[2].Store(t, tid.Mul(nn).Add(i), c.At(i)) })
				if reduces {
					reduce(t, o.op, part(tid.Add(dsl.N(1+levelCopies)))).Run(t, func(t *dsl.Thread, _ dsl.U32, v dsl.U32) {
						outs[5].Store(t, tid, v)
					})
				}
			})
		})
	})
	return k
}

// levelOutputs returns the lengths of levelKernel's outputs for n.
func levelOutputs(n int) []int {
	return []int{n, levelCopies * n, levelCopies * n, 1, levelCopies, levelCopies}
}

// checkLevels runs levelKernel on dev and compares its outputs with Go:
// the parts copied, and their folds under o.
func checkLevels(dev runtime.Device, o operator[uint32], n int, xs []uint32) string {
	got, err := run(dev, levelKernel(o, n), xs, levelOutputs(n)...)
	if err != nil {
		return err.Error()
	}
	parts := [][]uint32{xs[:n], xs[n : (1+levelCopies)*n], xs[(1+levelCopies)*n:]}
	for level, want := range parts {
		if d := differ(fmt.Sprintf("n=%d: Compute at level %d", n, level), got[level], want); d != "" {
			return d
		}
	}
	if bits.OnesCount(uint(n)) != 1 {
		return ""
	}
	fold := func(part []uint32) uint32 {
		acc := part[0]
		for _, x := range part[1:] {
			acc = o.apply(acc, x)
		}
		return acc
	}
	for level, first := range []int{0, 1, 1 + levelCopies} { // the first part of each level
		var want []uint32
		for i := range levelOutputs(n)[3+level] {
			want = append(want, fold(xs[(first+i)*n:][:n]))
		}
		if d := differ(fmt.Sprintf("n=%d, %s: reduce at level %d", n, o.name, level), got[3+level], want); d != "" {
			return d
		}
	}
	return ""
}

// levelInput returns random input for levelKernel of n.
func levelInput(r *rand.Rand, n int) []uint32 {
	xs := make([]uint32, (1+2*levelCopies)*n)
	for i := range xs {
		xs[i] = r.Uint32()
	}
	return xs
}

// TestComputeAtEveryLevel checks that Compute at Block, Warp and Thread
// level is the identity on an array's values, for lengths 1 to 100 (a
// warp's Compute past its 32 lanes), and that reduce at each level equals
// the sequential fold for lengths that are powers of two, under the
// commutative operators (reduce pairs element i with i + n/2).
func TestComputeAtEveryLevel(t *testing.T) {
	commutative := []operator[uint32]{u32Ops[0], u32Ops[1], u32Ops[3]}
	properties := gopter.NewProperties(proptest.Parameters(t, 25))
	properties.Property("Compute is the identity and reduce the fold at every level", prop.ForAll(
		func(n, op int, seed uint64) string {
			return checkLevels(runtime.CPU(), commutative[op], n, levelInput(rand.New(rand.NewPCG(seed, 1)), n))
		}, gen.OneGenOf(gen.IntRange(1, 100), gen.IntRange(0, 7).Map(func(k int) int { return 1 << k })),
		gen.IntRange(0, len(commutative)-1), gen.UInt64()))
	properties.TestingRun(t)
}

// TestGPUComputeAtEveryLevel runs levelKernel on the GPU and in the
// evaluator on fresh random data and compares them, and with Go.
func TestGPUComputeAtEveryLevel(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 3))
	for _, n := range []int{1, 2, 31, 32, 33, 64, 100, 128} {
		for _, o := range []operator[uint32]{u32Ops[0], u32Ops[1]} {
			xs := levelInput(r, n)
			sameOnBoth(t, gpu, func() *dsl.Kernel { return levelKernel(o, n) }, fmt.Sprintf("levels n=%d %s", n, o.name),
				xs, levelOutputs(n)...)
			if d := checkLevels(gpu, o, n, xs); d != "" {
				t.Errorf("on the GPU: %s", d)
			}
		}
	}
}
