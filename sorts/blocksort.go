package sorts

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// blockShapeFor returns the shape of the block sort of n keys of keyBytes
// bytes with values of valueBytes bytes, sorted by bits of their bits, and
// false when the radix sort's passes sort them instead: by
// kernels.RadixBlockShapeFor, unless the tests set the block sort's shape
// (which then takes up to its tile) or the passes' (which then take every
// sort).
func (s *Sorter) blockShapeFor(keyBytes, valueBytes, n, bits int) (kernels.RadixShape, bool) {
	switch {
	case s.blockShape != (kernels.RadixShape{}):
		return s.blockShape, n <= s.blockShape.Tile()
	case s.radixShape != (kernels.RadixShape{}):
		return kernels.RadixShape{}, false
	}
	return kernels.RadixBlockShapeFor(keyBytes, valueBytes, n, bits)
}

// blockSorts reports whether Sort, SortRange and SortKeys sort n uint32
// keys (more than none) in one block, as the radix sort does, except with
// the option Paper.
func (s *Sorter) blockSorts(n int) bool {
	_, ok := s.blockShapeFor(4, 0, n, 32)
	return !s.paper && n > 0 && ok
}

// blockCountShapeFor returns the shape of the block counting sort of n
// uint32 keys in a range of bins values, and false when another sort
// takes them: by kernels.BlockCountShapeFor, unless the tests set the
// block counting sort's shape (which then takes every sort its tile and
// kernels.BlockCountMaxBins hold, or none for Threads -1) or the shape of
// the block sort or of the passes (which then take the keys).
func (s *Sorter) blockCountShapeFor(n int, bins uint64) (kernels.BlockCountShape, bool) {
	switch {
	case s.countShape.Threads < 0 || s.blockShape != (kernels.RadixShape{}) || s.radixShape != (kernels.RadixShape{}):
		return kernels.BlockCountShape{}, false
	case s.countShape != (kernels.BlockCountShape{}):
		return s.countShape, n <= s.countShape.Tile() && bins <= kernels.BlockCountMaxBins
	}
	return kernels.BlockCountShapeFor(n, bins)
}

// blockCount writes keys (at most shape.Tile()), all in [lo, lo+bins), to
// out sorted, by counting them in one launch of one block
// (kernels.BlockCountKernel).
func (s *Sorter) blockCount(out, keys *runtime.Buffer[uint32], lo, bins uint32, shape kernels.BlockCountShape) error {
	key := radixKernelKey{kind: countKernel, key: ir.Uint32, shape: kernels.RadixShape{Threads: shape.Threads, PerThread: shape.PerThread}}
	count, err := s.radixKernel(key, func() *dsl.Kernel { return kernels.BlockCountKernel(shape) })
	if err != nil {
		return err
	}
	return s.launch(count, keys, out, lo, bins)
}

// blockSort writes keys (at most kernels.BlockSortMaxKeys), sorted by
// their bits [begin, end) (the others being the same in every key; end 0
// when no bit differs), to out with one launch, and returns their number.
func (s *Sorter) blockSort(out, keys *runtime.Buffer[uint32], begin, end int) (int, error) {
	job := radixJob[uint32, uint32]{op: "radix sort", keys: keys, outKeys: out, begin: begin, end: max(end, begin+1)}
	return keys.Len(), radixRun(s, job)
}

// radixBlockRun runs a radix sort job in one launch of one block of the
// given shape (kernels.RadixBlockKernel), which takes its keys.
func radixBlockRun[K Key, V Value](s *Sorter, j radixJob[K, V], shape kernels.RadixShape) error {
	key := radixKernelKey{kind: blockKernel, key: runtime.TypeOf[K](), value: runtime.TypeOf[V](), mode: j.mode, shape: shape, order: j.order}
	block, err := s.radixKernel(key, func() *dsl.Kernel { return kernels.RadixBlockKernel[K, V](shape, j.mode, j.order) })
	if err != nil {
		return err
	}
	var args [6]any
	return s.launch(block, j.oneLaunchArgs(args[:0])...)
}

// oneLaunchArgs appends to args the arguments of the sorts of a job in
// one launch (kernels.RadixBlockKernel, kernels.RankSortKernel): the keys
// in and out, the values in and out for Pairs, the positions out for
// Positions, then the bits sorted. Given a list on the caller's stack
// with room for six, it allocates nothing.
func (j radixJob[K, V]) oneLaunchArgs(args []any) []any {
	args = append(args, j.keys, j.outKeys)
	switch j.mode {
	case kernels.Pairs:
		args = append(args, j.values, j.outValues)
	case kernels.Positions:
		args = append(args, j.outValues)
	}
	return append(args, uint32(j.begin), uint32(j.end))
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
