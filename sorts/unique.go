package sorts

import (
	"errors"
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
// back one word: the number of distinct keys.
func RadixSortUnique[K Key](s *Sorter, out, keys *runtime.Buffer[K]) (int, error) {
	return s.locked(func() (int, error) {
		if err := radixCheckKeys(s, out, "out", keys); err != nil {
			return 0, err
		}
		if err := checkSeparate("out", out, "keys", keys, false); err != nil {
			return 0, err
		}
		if err := radixRun(s, radixJob[K, uint32]{op: "radix sort", keys: keys, outKeys: keys, end: 8 * runtime.TypeOf[K]().Size()}); err != nil {
			return 0, err
		}
		return uniqueRun(s, out, keys)
	})
}

// SortUniqueSlice returns the distinct keys sorted (see RadixSortUnique),
// looking only at the bits in which the keys differ, as SortSlice.
func SortUniqueSlice[K Key](s *Sorter, keys []K) (distinct []K, err error) {
	_, err = s.locked(func() (int, error) {
		n := len(keys)
		if n > MaxRadixKeys {
			return 0, fmt.Errorf("sorts: radix sort of %d keys, more than the %d (2^31-1) it takes: %w", n, MaxRadixKeys, ErrTooLarge)
		}
		begin, end := varyingBits(keys)
		if end == 0 {
			distinct = append([]K{}, keys[:min(n, 1)]...)
			return 0, nil
		}
		r := request{op: "radix sort", keys: n, written: n}
		if err := s.checkCost(r, 2*uint64(n)*uint64(runtime.TypeOf[K]().Size())); err != nil {
			return 0, err
		}
		in, err := runtime.FromSlice(s.dev, keys)
		if err != nil {
			return 0, fmt.Errorf("sorts: %v: copying the keys to %s: %w", r, s.dev.Name(), err)
		}
		defer func() { err = errors.Join(err, in.Free()) }()
		out, err := runtime.Alloc[K](s.dev, n)
		if err != nil {
			return 0, fmt.Errorf("sorts: %v: allocating the output on %s: %w", r, s.dev.Name(), err)
		}
		defer func() { err = errors.Join(err, out.Free()) }()
		if err := radixRun(s, radixJob[K, uint32]{op: r.op, keys: in, outKeys: in, begin: begin, end: end}); err != nil {
			return 0, err
		}
		k, err := uniqueRun(s, out, in)
		if err != nil {
			return 0, err
		}
		distinct, err = out.View(0, k).ToSlice()
		return 0, err
	})
	return distinct, err
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
