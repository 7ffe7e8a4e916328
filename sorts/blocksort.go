package sorts

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// radixBlocks reports whether the radix sort sorts n keys (more than
// none) in one launch of one block (radixBlockRun): at most
// kernels.BlockSortMaxKeys, unless the radix sort's shape is set (the
// tests' many tiles of few keys).
func (s *Sorter) radixBlocks(n int) bool {
	return n > 0 && n <= kernels.BlockSortMaxKeys && s.radixShape == (kernels.RadixShape{})
}

// blockSorts reports whether Sort, SortRange and SortKeys sort n keys in
// one block: as the radix sort does, except with the option Paper.
func (s *Sorter) blockSorts(n int) bool { return !s.paper && s.radixBlocks(n) }

// blockSort writes keys (at most kernels.BlockSortMaxKeys), sorted by
// their bits [begin, end) (the others being the same in every key; end 0
// when no bit differs), to out with one launch, and returns their number.
func (s *Sorter) blockSort(out, keys *runtime.Buffer[uint32], begin, end int) (int, error) {
	job := radixJob[uint32, uint32]{op: "radix sort", keys: keys, outKeys: out, begin: begin, end: max(end, begin+1)}
	return keys.Len(), radixBlockRun(s, job)
}

// radixBlockRun runs a radix sort job of at most kernels.BlockSortMaxKeys
// keys in one launch of one block (kernels.RadixBlockKernel).
func radixBlockRun[K Key, V Value](s *Sorter, j radixJob[K, V]) error {
	key := radixKernelKey{kind: "block", key: runtime.TypeOf[K](), value: runtime.TypeOf[V](), mode: j.mode}
	block, err := s.radixKernel(key, func() *dsl.Kernel { return kernels.RadixBlockKernel[K, V](j.mode) })
	if err != nil {
		return err
	}
	args := []any{j.keys, j.outKeys}
	switch j.mode {
	case kernels.Pairs:
		args = append(args, j.values, j.outValues)
	case kernels.Positions:
		args = append(args, j.outValues)
	}
	return s.launch(block, append(args, uint32(j.begin), uint32(j.end))...)
}

// checkInRange returns an error wrapping ErrKeyOutOfRange when a key lies
// outside [lo, lo+values).
func checkInRange(keys []uint32, lo uint32, values int) error {
	for _, k := range keys {
		if uint64(k-lo) >= uint64(values) || k < lo {
			return keyOutOfRange(lo, values)
		}
	}
	return nil
}

// keyOutOfRange is the error for a key outside [lo, lo+values).
func keyOutOfRange(lo uint32, values int) error {
	return fmt.Errorf("sorts: %w [%d, %d)", ErrKeyOutOfRange, lo, uint64(lo)+uint64(values))
}
