package sorts

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// rankSortMultiprocessors is the fewest multiprocessors of a device on
// which the rank sort is picked: its n^2 comparisons beat the block
// sort's passes by running on many multiprocessors at once, which the CPU
// evaluator (0 multiprocessors: it runs a launch's blocks one after
// another) does not. The table kernels.RankSortWarpsFor was measured on
// 132 multiprocessors; how it moves on a GPU of a few tens was not.
const rankSortMultiprocessors = 16

// rankSortFor returns the warps of a block of s's rank sort of job j's n
// keys, and false when another sort takes them: by
// kernels.RankSortWarpsFor on a device of at least rankSortMultiprocessors
// multiprocessors whose blocks may take the rank sort's shared memory,
// unless the tests set the rank sort's warps (which then take up to
// kernels.RankSortMaxKeys keys, or none for -1) or the shape of the block
// sort or of the passes (which then take the keys). The rank sort writes
// its output while other blocks still read the input, so that it takes
// no keys (or values) sorted in place.
func rankSortFor[K Key, V Value](s *Sorter, j radixJob[K, V], n int) (int, bool) {
	inPlace := j.keys.Mem() == j.outKeys.Mem() || j.mode == kernels.Pairs && j.values.Mem() == j.outValues.Mem()
	switch {
	case inPlace || s.rankWarps < 0 || s.blockShape != (kernels.RadixShape{}) || s.radixShape != (kernels.RadixShape{}):
		return 0, false
	case s.rankWarps > 0:
		return s.rankWarps, n <= kernels.RankSortMaxKeys
	case s.gpu.Multiprocessors < rankSortMultiprocessors:
		return 0, false
	}
	keyBytes := runtime.TypeOf[K]().Size()
	warps, ok := kernels.RankSortWarpsFor(keyBytes, n, j.end-j.begin)
	return warps, ok && kernels.RankSortSharedBytes(keyBytes, warps) <= s.gpu.SharedPerBlockOptIn
}

// rankSortRun runs a radix sort job by ranking every key among all
// (kernels.RankSortKernel) in one launch.
func rankSortRun[K Key, V Value](s *Sorter, j radixJob[K, V], warps int) error {
	key := radixKernelKey{kind: rankKernel, key: runtime.TypeOf[K](), value: runtime.TypeOf[V](), mode: j.mode,
		shape: kernels.RadixShape{Threads: warps}, order: j.order}
	rank, err := s.radixKernel(key, func() *dsl.Kernel { return kernels.RankSortKernel[K, V](warps, j.mode, j.order) })
	if err != nil {
		return err
	}
	var args [6]any
	return s.launch(rank, j.oneLaunchArgs(args[:0])...)
}
