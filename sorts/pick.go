package sorts

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/obsidian-go/obsidian/runtime"
)

// algorithm is a sort SortKeys (and Sort) can pick.
type algorithm uint8

// The algorithms, in the order the cost model considers them.
const (
	blockCountAlgorithm algorithm = iota // counting sort in one launch of one block (kernels.BlockCountMaxBins values at most)
	blockAlgorithm                       // one launch of one block (kernels.BlockSortMaxKeys keys at most)
	countingAlgorithm                    // counting sort over the range
	radixAlgorithm                       // the radix sort over the range's bits
)

// countingLimit is a row of the cost model: for up to keys keys, counting
// sort is faster than the radix sort for ranges whose number of values
// lies in one of the spans wins (none when wins is empty).
type countingLimit struct {
	keys int
	wins []valueSpan
}

// valueSpan is a span of range sizes: more than above values, up to upTo.
type valueSpan struct{ above, upTo uint64 }

// countingLimits is the cost model's table, from the medians of cmd/obsbench
// on an H200 (counting sort against the radix sort told the range's bits;
// uniform keys of ranges 2^4..2^24, all keys equal, sorted and unique keys;
// 2^16, 1000003, 2^20, 2^21 to 2^25 and 2^27 keys; see the package
// documentation): rows in increasing keys; past the last row, the last
// row's spans. Up to 2^21 keys the radix sort, which reads nothing back,
// was faster for nearly every range; from 2^22 keys counting sort wins,
// first for ranges of 2^9 to 2^12 values and of 2^18 to 2^22, then for
// more of them as the keys grow; the ranges of 2^16 and 2^17 values (a
// table in shared memory in slices) join at 2^24 keys. Wider ranges go to
// the radix sort, whose cost does not grow with the range.
var countingLimits = []countingLimit{
	{keys: 1 << 21},
	{keys: 1 << 22, wins: []valueSpan{{1 << 8, 1 << 12}, {1 << 17, 1 << 22}}},
	{keys: 1 << 23, wins: []valueSpan{{0, 1 << 15}, {1 << 17, 1 << 22}}},
	{keys: 1 << 25, wins: []valueSpan{{0, 1 << 23}}},
	{keys: 1 << 27, wins: []valueSpan{{0, 1 << 24}}},
}

// pick returns the algorithm the cost model predicts fastest for n keys
// in a range of bins values.
func (s *Sorter) pick(n int, bins uint64) algorithm {
	switch {
	case s.blockSorts(n):
		if _, ok := s.blockCountShapeFor(n, bins); ok {
			return blockCountAlgorithm
		}
		return blockAlgorithm
	case bins > MaxBins:
		return radixAlgorithm
	}
	table := s.costModel
	if table == nil {
		table = countingLimits
	}
	row := table[len(table)-1]
	for _, r := range table {
		if n <= r.keys {
			row = r
			break
		}
	}
	for _, w := range row.wins {
		if bins > w.above && bins <= w.upTo {
			return countingAlgorithm
		}
	}
	return radixAlgorithm
}

// SortKeys writes keys, sorted, to out (of the same length as keys,
// possibly keys itself; an out that overlaps keys otherwise is a
// *BufferError), every key lying in [lo, last] (any such range,
// the whole of uint32 included), by the algorithm the cost model picks for
// their number and range (see the package documentation): a one-launch
// sort (the rank sort, the block sort or the block counting sort) for up
// to kernels.BlockSortMaxKeys keys, counting sort
// for a range narrow enough for the number of keys, and otherwise the
// radix sort of the bits in which lo and last differ, as CUB's radix sort
// told end_bit. The counting sort checks every key against the range and
// reads back its flag (an error wrapping ErrKeyOutOfRange); the one-launch
// and radix sorts enqueue their launches and read nothing back. A key
// outside the range then leaves out holding every key, in an order not
// defined (the radix sorts order them by the range's bits, the block
// counting sort leaves them as they were), and nothing is written outside
// out. last below lo is an error wrapping ErrBadRange.
func (s *Sorter) SortKeys(out, keys *runtime.Buffer[uint32], lo, last uint32) error {
	_, err := s.locked(func() (int, error) {
		if last < lo {
			return 0, fmt.Errorf("sorts: %w [%d, %d]: empty", ErrBadRange, lo, last)
		}
		if err := errors.Join(s.checkSortBuffers(out, keys), checkSeparate("out", out, "keys", keys, true)); err != nil {
			return 0, err
		}
		return s.sortPicked(out, keys, lo, last)
	})
	return err
}

// sortPicked sorts keys, all in [lo, last], into out by the algorithm pick
// chooses, on checked arguments, and returns the number of keys written.
func (s *Sorter) sortPicked(out, keys *runtime.Buffer[uint32], lo, last uint32) (int, error) {
	n := keys.Len()
	if n == 0 {
		return 0, nil
	}
	bins := uint64(last) - uint64(lo) + 1
	switch s.pick(n, bins) {
	case blockCountAlgorithm:
		shape, _ := s.blockCountShapeFor(n, bins)
		return n, s.blockCount(out, keys, lo, uint32(bins), shape)
	case blockAlgorithm:
		return s.blockSort(out, keys, 0, max(1, bits.Len32(lo^last)))
	case countingAlgorithm:
		return n, s.fastCountingSort(out, keys, lo, int(bins))
	}
	job := radixJob[uint32, uint32]{op: "radix sort", keys: keys, outKeys: out, end: max(1, bits.Len32(lo^last))}
	return n, radixRun(s, job)
}
