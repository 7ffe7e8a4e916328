package sorts

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// ErrNotDistinct: HPSortDistinct was given a key more than once.
var ErrNotDistinct = errors.New("keys not distinct")

// papersFns are the kernels of the papers' sorts (H-P, count sort of
// pairs, the notes' radix sort), loaded by the first call of one of them
// so that New does not compile them for Sorters that never use them.
type papersFns struct {
	loaded                                               bool
	hpSums, hpDistinct, hpBinarize, hpCompress, hpExpand runtime.Function
	countPairs, radixLocal, radixScatter                 runtime.Function
}

// loadPapers loads the papers' kernels once.
func (s *Sorter) loadPapers() error {
	if s.papers.loaded {
		return nil
	}
	p := &s.papers
	err := s.load("papers", []kernelLoad{
		{&p.hpSums, kernels.HPSumsHistogramKernel},
		{&p.hpDistinct, kernels.HPDistinctKernel},
		{&p.hpBinarize, kernels.HPBinarizeKernel},
		{&p.hpCompress, kernels.HPCompressKernel},
		{&p.hpExpand, kernels.HPExpandKernel},
		{&p.countPairs, kernels.CountPairsScatterKernel},
		{&p.radixLocal, kernels.NotesRadixLocalKernel},
		{&p.radixScatter, kernels.NotesRadixScatterKernel},
	})
	p.loaded = err == nil
	return err
}

// hpVariant is one of the H-P sorts: its name, for messages, and its
// pipeline after the keys' histogram A and the checks.
type hpVariant struct {
	op string
	// needs is the scratch the variant takes beyond the histogram's, for
	// n keys over bins values.
	needs func(s *Sorter, n, bins int) []need
	// run sorts from the histogram hist of the keys into out.
	run func(s *Sorter, out, hist *runtime.Buffer[uint32], lo uint32, n int) error
}

// HPSort writes the keys, sorted, to out by the H-P algorithm of Kozakai,
// Fujimoto and Wada (Algorithm 2): the histogram A of the keys, its prefix
// sums Ap, the histogram B of Ap and B's prefix sums, which are the sorted
// keys. It takes the arguments of CountingSort (out of the same length as
// keys, possibly keys itself; every key in [lo, hi), a key outside being an
// error wrapping ErrKeyOutOfRange) and the same scratch: 4 bytes per value
// of the range. Like the paper's, it writes no key but counts, so it is
// neither stable nor unstable: equal keys are indistinguishable.
func (s *Sorter) HPSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	return s.hp(out, keys, lo, hi, hpPlain)
}

// HPSortDistinct is HPSort for distinct keys by 1-H-P (Algorithm 3): one
// histogram and one prefix sum Ap, and value v written at position
// Ap[v-1] wherever Ap steps. A key given twice is an error wrapping
// ErrNotDistinct (out is then undefined, and nothing is written outside
// it).
func (s *Sorter) HPSortDistinct(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	return s.hp(out, keys, lo, hi, hpDistinct)
}

// HPSortFew is HPSort by 0-compressed H-P (Algorithm 5), for keys of few
// distinct values: the len values that occur are compressed into their
// counts C and values iC (through the prefix sums of A > 0), and the
// histogram B of Ap is written from C's prefix sums, len cells, instead of
// by a histogram of all of Ap. Its scratch is 8 bytes per value of the
// range and 8 per distinct key.
func (s *Sorter) HPSortFew(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	return s.hp(out, keys, lo, hi, hpFew)
}

// hp checks the arguments of an H-P sort and runs it: the histogram of the
// keys, then the variant.
func (s *Sorter) hp(out, keys *runtime.Buffer[uint32], lo, hi uint32, v hpVariant) error {
	_, err := s.locked(func() (int, error) {
		bins, err := checkRange(lo, hi)
		if err != nil {
			return 0, err
		}
		if err := s.checkSortBuffers(out, keys); err != nil {
			return 0, err
		}
		n := keys.Len()
		if n == 0 {
			return 0, nil
		}
		needs := []need{{&s.sc.hist, bins}, {&s.sc.bad, 2}}
		needs = append(needs, s.histogramNeeds(bins, n)...)
		needs = append(needs, v.needs(s, n, bins)...)
		if err := s.reserve(request{op: v.op, keys: n, values: bins, written: max(bins, n)}, needs...); err != nil {
			return 0, err
		}
		if err := s.loadPapers(); err != nil {
			return 0, err
		}
		hist, err := take(s.sc.hist, bins)
		if err != nil {
			return 0, err
		}
		bad, err := s.clearedFlag()
		if err != nil {
			return 0, err
		}
		if err := hist.FillOn(s.stream, 0); err != nil {
			return 0, err
		}
		// A key out of range is not counted, so every position the
		// variant computes stays inside out: the flag is read at the end.
		if err := s.sharedHistogram(hist, keys, lo, bad); err != nil {
			return 0, err
		}
		return 0, errors.Join(v.run(s, out, hist, lo, n), checkFlag(bad, lo, bins))
	})
	return err
}

var (
	hpPlain = hpVariant{
		op: "H-P sort",
		needs: func(s *Sorter, n, bins int) []need {
			return s.scanNeeds(max(n, bins), false)
		},
		run: func(s *Sorter, out, hist *runtime.Buffer[uint32], lo uint32, n int) error {
			if err := s.inclusiveScan(hist, hist, false); err != nil { // Ap
				return err
			}
			if err := out.FillOn(s.stream, 0); err != nil {
				return err
			}
			if err := s.launch(s.papers.hpSums, hist, lo, out); err != nil { // B
				return err
			}
			return s.inclusiveScan(out, out, false) // y
		},
	}
	hpDistinct = hpVariant{
		op: "1-H-P sort",
		needs: func(s *Sorter, _, bins int) []need {
			return s.scanNeeds(bins, false)
		},
		run: func(s *Sorter, out, hist *runtime.Buffer[uint32], lo uint32, n int) error {
			if err := s.inclusiveScan(hist, hist, false); err != nil { // Ap
				return err
			}
			dup := s.sc.bad.View(1, 1)
			if err := dup.FillOn(s.stream, 0); err != nil {
				return err
			}
			if err := s.launch(s.papers.hpDistinct, hist, lo, out, dup); err != nil {
				return err
			}
			flag, err := dup.ToSlice()
			if err != nil {
				return err
			}
			if flag[0] != 0 {
				return fmt.Errorf("sorts: %w: 1-H-P sort of %d keys was given a key more than once", ErrNotDistinct, n)
			}
			return nil
		},
	}
	hpFew = hpVariant{
		op: "0-compressed H-P sort",
		needs: func(s *Sorter, n, bins int) []need {
			m := min(n, bins) + 1 // at most this many values occur, and C[0]
			// The scans are of A01 (bins), of C (m, one more than the
			// keys when every key is distinct) and of y (n).
			return append(s.scanNeeds(max(n, bins, m), false), need{&s.sc.pos, bins}, need{&s.sc.counts, m}, need{&s.sc.values, m})
		},
		run: runHPFew,
	}
)

// runHPFew is 0-compressed H-P after the histogram hist (A) of n keys.
func runHPFew(s *Sorter, out, hist *runtime.Buffer[uint32], lo uint32, n int) error {
	bins := hist.Len()
	ranks, err := take(s.sc.pos, bins) // A01, then its prefix sums A01p
	if err != nil {
		return err
	}
	if err := s.launch(s.papers.hpBinarize, hist, ranks); err != nil {
		return err
	}
	if err := s.inclusiveScan(ranks, ranks, false); err != nil {
		return err
	}
	last, err := ranks.View(bins-1, 1).ToSlice()
	if err != nil {
		return err
	}
	occur := int(last[0]) // len: at most min(n, bins), as reserved
	counts, err := take(s.sc.counts, occur+1)
	if err != nil {
		return err
	}
	values, err := take(s.sc.values, occur+1)
	if err != nil {
		return err
	}
	if err := s.launch(s.papers.hpCompress, hist, ranks, counts, values); err != nil { // C, iC
		return err
	}
	if err := s.inclusiveScan(counts, counts, false); err != nil { // Cp
		return err
	}
	if err := out.FillOn(s.stream, 0); err != nil {
		return err
	}
	if err := s.launch(s.papers.hpExpand, counts, values, lo, out); err != nil { // B
		return err
	}
	return s.inclusiveScan(out, out, false) // y
}
