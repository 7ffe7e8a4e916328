package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// tagged returns n distinct values, i in the low bits of value i, whose
// top bit (the one Partition splits by in these tests) is set with
// probability p: equal outputs then mean a stable partition.
func tagged(seed uint64, n int, p float64) []uint32 {
	r := rand.New(rand.NewPCG(seed, 0x9a27))
	xs := make([]uint32, n)
	for i := range xs {
		xs[i] = uint32(i)
		if r.Float64() < p {
			xs[i] |= 1 << 31
		}
	}
	return xs
}

// topBitClear is the predicate of the partition tests.
func topBitClear(x dsl.U32) dsl.Bool { return x.Lt(dsl.N(1 << 31)) }

// partitionKernel returns a one-block kernel that writes Partition,
// PartitionRanks and PartitionCount of its whole input by topBitClear, run
// at level P.
func partitionKernel[P arrays.Collective](threads int, at level[P]) *dsl.Kernel {
	k := dsl.NewKernel("partition", threads)
	in := dsl.Input[uint32](k, "input")
	parted, ranks, count := dsl.Output[uint32](k, "partitioned"), dsl.Output[uint32](k, "ranks"),
		dsl.Output[uint32](k, "count")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			a := arrays.FromArray(in)
			at(b, func(p P) {
				arrays.WriteTo(p, parted, arrays.Partition[P](topBitClear, a))
				arrays.WriteTo(p, ranks, arrays.PartitionRanks[P](topBitClear, a))
				arrays.WriteTo(p, count, arrays.PartitionCount[P](topBitClear, a))
			})
		})
	})
	return k
}

// stablePartition returns the sequential stable partition of xs by
// pred, each element's destination, and the number where pred holds.
func stablePartition(xs []uint32, pred func(uint32) bool) (parted, ranks []uint32, count uint32) {
	ranks = make([]uint32, len(xs))
	for _, x := range xs {
		if pred(x) {
			count++
		}
	}
	trues, falses := uint32(0), count
	for i, x := range xs {
		if pred(x) {
			ranks[i], trues = trues, trues+1
		} else {
			ranks[i], falses = falses, falses+1
		}
	}
	parted = make([]uint32, len(xs))
	for i, x := range xs {
		parted[ranks[i]] = x
	}
	return parted, ranks, count
}

// checkPartition runs partitionKernel on xs and compares it with the
// sequential stable partition.
func checkPartition[P arrays.Collective](dev runtime.Device, threads int, at level[P], xs []uint32) string {
	got, err := run(dev, partitionKernel(threads, at), xs, len(xs), len(xs), 1)
	where := fmt.Sprintf("Partition at %T, %d elements, %d threads: ", *new(P), len(xs), threads)
	if err != nil {
		return where + err.Error()
	}
	parted, ranks, count := stablePartition(xs, func(x uint32) bool { return x < 1<<31 })
	for _, d := range []string{differ("partitioned", got[0], parted), differ("ranks", got[1], ranks),
		differ("count", got[2], []uint32{count})} {
		if d != "" {
			return where + d
		}
	}
	return ""
}

// TestPartitionEqualsStablePartition checks Partition, PartitionRanks and
// PartitionCount at Warp and Block level against the sequential stable
// partition of distinct tagged values, at the lengths where the tiles
// change shape and at random lengths up to 2^12 (up to 128 elements per
// lane), for densities from none to all.
func TestPartitionEqualsStablePartition(t *testing.T) {
	dev := runtime.CPU()
	for _, n := range []int{1, 2, 31, 32, 33, 64, 65, 200} {
		for _, p := range []float64{0, 0.5, 1} {
			xs := tagged(uint64(n), n, p)
			for _, msg := range []string{checkPartition(dev, 64, atWarp, xs), checkPartition(dev, 96, atBlock, xs)} {
				if msg != "" {
					t.Error(msg)
				}
			}
		}
	}
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("Partition equals the stable partition", prop.ForAll(
		func(n, warps int, block bool, p float64, seed uint64) string {
			xs := tagged(seed, n, p)
			if block {
				return checkPartition(dev, warps*ir.WarpSize, atBlock, xs)
			}
			return checkPartition(dev, warps*ir.WarpSize, atWarp, xs)
		},
		gen.IntRange(1, 1<<12), gen.IntRange(1, 8), gen.Bool(), gen.Float64Range(0, 1), gen.UInt64()))
	props.TestingRun(t)
}

// TestPartitionOfNothing checks that an empty array is partitioned into
// nothing, with a count of 0, at both levels.
func TestPartitionOfNothing(t *testing.T) {
	dev := runtime.CPU()
	for _, msg := range []string{checkPartition(dev, 64, atWarp, nil), checkPartition(dev, 64, atBlock, nil)} {
		if msg != "" {
			t.Error(msg)
		}
	}
}
