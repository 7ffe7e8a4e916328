package sorts

import (
	"fmt"
	"math/bits"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// RadixSortUnique writes the distinct keys of keys, sorted, to the front of out
// (of the keys' length; a separate allocation) and returns their number.
// Keys are distinct when their bits are: -0 and +0 both stay, and a NaN is
// kept once per bit pattern. It sorts keys in place (RadixSort: the call
// overwrites them), counts the first keys of runs in each tile, scans the
// counts and writes the first keys to out, all on the device, and reads
// back one word: the number of distinct keys. Options: Descending (Bits
// is refused: keys are distinct by all their bits).
func RadixSortUnique[K Key](s *Sorter, out, keys *runtime.Buffer[K], opts ...RadixOption) (int, error) {
	return s.locked(func() (int, error) {
		order, err := uniqueOrder[K]("RadixSortUnique", opts)
		if err != nil {
			return 0, err
		}
		if err := radixCheckKeys(s, out, "out", keys); err != nil {
			return 0, err
		}
		if err := checkSeparate("out", out, "keys", keys, false); err != nil {
			return 0, err
		}
		if err := radixRun(s, radixJob[K, uint32]{op: "radix sort", keys: keys, outKeys: keys, end: 8 * runtime.TypeOf[K]().Size(),
			order: order}); err != nil {
			return 0, err
		}
		return uniqueRun(s, out, keys)
	})
}

// SortUniqueSlice returns the distinct keys sorted (see RadixSortUnique),
// looking only at the bits in which the keys differ, as SortSlice.
// Options: Descending.
func SortUniqueSlice[K Key](s *Sorter, keys []K, opts ...RadixOption) (distinct []K, err error) {
	_, err = s.locked(func() (int, error) {
		order, err := uniqueOrder[K]("SortUniqueSlice", opts)
		if err != nil {
			return 0, err
		}
		distinct, err = uniqueSlice(s, keys, order)
		return 0, err
	})
	return distinct, err
}

// uniqueSlice is SortUniqueSlice with the Sorter locked.
func uniqueSlice[K Key](s *Sorter, keys []K, order kernels.Order) ([]K, error) {
	if err := radixCheckSliceLen(len(keys)); err != nil {
		return nil, err
	}
	begin, end := varyingBits(keys)
	if end == 0 {
		return append([]K{}, keys[:min(len(keys), 1)]...), nil
	}
	return radixOnSlice(s, keys, func(out, in *runtime.Buffer[K]) (int, error) {
		if err := radixRun(s, radixJob[K, uint32]{op: "radix sort", keys: in, outKeys: in, begin: begin, end: end, order: order}); err != nil {
			return 0, err
		}
		return uniqueRun(s, out, in)
	})
}

// uniqueOrder returns the order the options of the unique sort op ask
// for, refusing Bits: keys are distinct when any of their bits differ.
func uniqueOrder[K Key](op string, opts []RadixOption) (kernels.Order, error) {
	c, err := radixOptions[K](opts)
	if err != nil {
		return 0, err
	}
	if c.bitsSet {
		return 0, fmt.Errorf("sorts: %w: %s takes no Bits option: keys are distinct when any of their bits differ", ErrBadOption, op)
	}
	return c.order, nil
}

// uniqueRun writes the first key of each run of the sorted keys to the
// front of out (a separate allocation) and returns their number.
func uniqueRun[K Key](s *Sorter, out, sorted *runtime.Buffer[K]) (int, error) {
	n := sorted.Len()
	if n == 0 {
		return 0, nil
	}
	tiles := ceilDiv(n, kernels.UniqueTile)
	needs := append([]need{{&s.sc.hist, tiles}, {&s.sc.pos, tiles + 1}}, s.scanNeeds(tiles, false)...)
	if err := s.reserve(request{op: "unique", keys: n, written: n}, needs...); err != nil {
		return 0, err
	}
	counts, err := take(s.sc.hist, tiles)
	if err != nil {
		return 0, err
	}
	pos, err := take(s.sc.pos, tiles+1)
	if err != nil {
		return 0, err
	}
	countRuns, err := s.radixKernel(radixKernelKey{kind: uniqueCountsKernel, key: runtime.TypeOf[K]()}, kernels.UniqueCountsKernel[K])
	if err != nil {
		return 0, err
	}
	write, err := s.radixKernel(radixKernelKey{kind: uniqueKernel, key: runtime.TypeOf[K]()}, kernels.UniqueKernel[K])
	if err != nil {
		return 0, err
	}
	if err := s.launch(countRuns, sorted, counts); err != nil {
		return 0, err
	}
	if err := s.exclusiveScan(pos, counts, false); err != nil {
		return 0, err
	}
	if err := s.launch(write, sorted, pos, out); err != nil {
		return 0, err
	}
	total, err := pos.View(tiles, 1).ToSlice()
	if err != nil {
		return 0, err
	}
	return int(total[0]), nil
}

// radixWide sorts uint32 keys that span [lo, hi], more than MaxBins
// values, by the radix sort over the bits below the highest in which lo
// and hi differ (the bits above are the same in every key). With unique it
// sorts keys in place (the copy a slice method made) and writes the first
// key of each run to out, returning their number.
func (s *Sorter) radixWide(out, keys *runtime.Buffer[uint32], lo, hi uint32, unique bool) (int, error) {
	if err := radixCheckLen(keys); err != nil {
		return 0, err
	}
	job := radixJob[uint32, uint32]{op: "radix sort", keys: keys, outKeys: out, end: 32 - bits.LeadingZeros32(lo^hi)}
	if !unique {
		return keys.Len(), radixRun(s, job)
	}
	job.outKeys = keys
	if err := radixRun(s, job); err != nil {
		return 0, err
	}
	return uniqueRun(s, out, keys)
}
