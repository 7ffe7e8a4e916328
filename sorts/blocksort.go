package sorts

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// blockSortBits is the digit of the Sorter's block sort: four passes over
// uint32 keys.
const blockSortBits = 8

// blockSortKernel is the Sorter's block sort of uint32 keys.
func blockSortKernel() *dsl.Kernel {
	return kernels.BlockSortKernel[uint32]("blockSort32", blockSortBits, nil, nil)
}

// blockSorts reports whether the Sorter sorts n keys (more than none) in
// one block: at most kernels.BlockSortMaxKeys, by the fast pipeline.
func (s *Sorter) blockSorts(n int) bool { return !s.paper && n > 0 && n <= kernels.BlockSortMaxKeys }

// blockSort writes keys, sorted, to out (as long, at most
// kernels.BlockSortMaxKeys) with one launch, and returns their number.
func (s *Sorter) blockSort(out, keys *runtime.Buffer[uint32]) (int, error) {
	return keys.Len(), s.launch(s.fn.blockSort, keys, out)
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
