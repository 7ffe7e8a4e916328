package kernels_test

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestRankSortWarps checks the rank sort's table: it takes 1 to 2^10
// keys of 4 and 8 bytes by all their bits, no more than RankSortMaxKeys
// keys, and leaves sorts by 8 bits of many keys (one pass of the block
// sort) to the block sort; its blocks' kernels build for every key type
// and what travels with the keys and take the shared memory
// RankSortSharedBytes says; and a block of too few or too many warps is
// an error of the kernel naming them.
func TestRankSortWarps(t *testing.T) {
	for _, keyBytes := range []int{4, 8} {
		for _, n := range []int{1, 2, 31, 32, 33, 1000, 1 << 10} {
			warps, ok := kernels.RankSortWarpsFor(keyBytes, n, 8*keyBytes)
			if !ok || warps < kernels.RankSortMinWarps || warps > kernels.RankSortMaxWarps {
				t.Errorf("%d keys of %d bytes: %d warps, %v", n, keyBytes, warps, ok)
				continue
			}
			for _, k := range rankKernels(keyBytes, warps) {
				built, err := k.Build()
				if err != nil {
					t.Errorf("%d keys of %d bytes, %d warps: %v", n, keyBytes, warps, err)
					continue
				}
				_, compiled, err := codegen.CUDA(built)
				if err != nil {
					t.Errorf("%s: %v", built.Name, err)
					continue
				}
				if want := kernels.RankSortSharedBytes(keyBytes, warps); compiled.SharedBytes != want {
					t.Errorf("%s of %d warps: %d bytes of shared memory, RankSortSharedBytes says %d", built.Name, warps,
						compiled.SharedBytes, want)
				}
			}
		}
		if _, ok := kernels.RankSortWarpsFor(keyBytes, kernels.RankSortMaxKeys+1, 8*keyBytes); ok {
			t.Errorf("RankSortMaxKeys+1 keys of %d bytes take a rank sort", keyBytes)
		}
		if _, ok := kernels.RankSortWarpsFor(keyBytes, kernels.RankSortMaxKeys, 8); ok {
			t.Errorf("RankSortMaxKeys keys of %d bytes by 8 bits take a rank sort", keyBytes)
		}
	}
	for _, warps := range []int{0, kernels.RankSortMinWarps - 1, kernels.RankSortMaxWarps + 1} {
		_, err := kernels.RankSortKernel[uint32, uint32](warps, kernels.KeysOnly, kernels.Ascending).Build()
		if err == nil || !strings.Contains(err.Error(), "RankSortKernel: ") || !strings.Contains(err.Error(), " warps a block") {
			t.Errorf("a rank sort of %d warps: error %v, want one naming its warps", warps, err)
		}
	}
}

// rankKernels returns the rank sort's kernels of keys of keyBytes bytes
// in blocks of warps warps: keys alone, pairs and positions.
func rankKernels(keyBytes, warps int) []*dsl.Kernel {
	if keyBytes == 8 {
		return []*dsl.Kernel{kernels.RankSortKernel[float64, uint32](warps, kernels.KeysOnly, kernels.Ascending),
			kernels.RankSortKernel[int64, uint64](warps, kernels.Pairs, kernels.Ascending), kernels.RankSortKernel[uint64, uint32](warps, kernels.Positions, kernels.Ascending)}
	}
	return []*dsl.Kernel{kernels.RankSortKernel[uint32, uint32](warps, kernels.KeysOnly, kernels.Ascending),
		kernels.RankSortKernel[float32, float64](warps, kernels.Pairs, kernels.Ascending), kernels.RankSortKernel[int32, uint32](warps, kernels.Positions, kernels.Ascending)}
}
