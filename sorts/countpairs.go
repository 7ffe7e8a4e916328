package sorts

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
)

// CountSortPairs sorts the pairs (keys[i], vals[i]) by key into outKeys
// and outVals by the count sort of Sun and Ma: count the keys (the
// library's histogram), scan the counts into each key's first position,
// and scatter every pair to the next free position of its key, taken with
// an atomic add. Pairs with equal keys land in the order of their atomics,
// which a GPU does not fix: the sort is not stable (the multiset of pairs
// is kept). Every key must lie in [lo, hi); a key outside is an error
// wrapping ErrKeyOutOfRange, its pair is dropped and the outputs are then
// undefined (nothing is written outside them). The four buffers have the
// same length; outKeys and outVals must be separate allocations from each
// other and from keys and vals (keys and vals may share one). The scratch
// is 8 bytes per value of the range.
func (s *Sorter) CountSortPairs(outKeys, outVals, keys, vals *runtime.Buffer[uint32], lo, hi uint32) error {
	_, err := s.locked(func() (int, error) {
		bins, err := checkRange(lo, hi)
		if err != nil {
			return 0, err
		}
		if err := s.checkPairBuffers(outKeys, outVals, keys, vals); err != nil {
			return 0, err
		}
		return 0, s.countSortPairs(outKeys, outVals, keys, vals, lo, bins)
	})
	return err
}

// checkPairBuffers checks the buffers of a sort of pairs: usable, at most
// 2^32-1 keys, all of one length, the outputs apart from each other and
// from the inputs.
func (s *Sorter) checkPairBuffers(outKeys, outVals, keys, vals *runtime.Buffer[uint32]) error {
	if err := errors.Join(s.checkBuffer("outKeys", outKeys), s.checkBuffer("outVals", outVals),
		s.checkBuffer("keys", keys), s.checkBuffer("vals", vals)); err != nil {
		return err
	}
	if err := checkKernelLen("keys", keys); err != nil {
		return err
	}
	for _, b := range []struct {
		arg string
		buf *runtime.Buffer[uint32]
	}{{"vals", vals}, {"outKeys", outKeys}, {"outVals", outVals}} {
		if b.buf.Len() != keys.Len() {
			return &BufferError{Arg: b.arg, Err: fmt.Errorf("%d elements for %d keys: want as many", b.buf.Len(), keys.Len())}
		}
	}
	return errors.Join(
		checkSeparate("outKeys", outKeys, "outVals", outVals, false),
		checkSeparate("outKeys", outKeys, "keys", keys, false),
		checkSeparate("outKeys", outKeys, "vals", vals, false),
		checkSeparate("outVals", outVals, "keys", keys, false),
		checkSeparate("outVals", outVals, "vals", vals, false))
}

// countSortPairs is CountSortPairs on checked arguments.
func (s *Sorter) countSortPairs(outKeys, outVals, keys, vals *runtime.Buffer[uint32], lo uint32, bins int) error {
	n := keys.Len()
	if n == 0 {
		return nil
	}
	needs := []need{{&s.sc.hist, bins}, {&s.sc.pos, bins + 1}, {&s.sc.bad, 1}}
	needs = append(needs, s.histogramNeeds(bins, n)...)
	needs = append(needs, s.scanNeeds(bins, false)...)
	if err := s.reserve(request{op: "count sort of pairs", keys: n, values: bins, written: max(bins+1, n)}, needs...); err != nil {
		return err
	}
	if err := s.loadPapers(); err != nil {
		return err
	}
	counts, err := take(s.sc.hist, bins)
	if err != nil {
		return err
	}
	starts, err := take(s.sc.pos, bins+1)
	if err != nil {
		return err
	}
	bad, err := s.clearedFlag()
	if err != nil {
		return err
	}
	if err := counts.FillOn(s.stream, 0); err != nil { // step 1
		return err
	}
	if err := s.sharedHistogram(counts, keys, lo, bad); err != nil { // step 2
		return err
	}
	if err := s.exclusiveScan(starts, counts, false); err != nil { // step 3
		return err
	}
	if err := s.launch(s.papers.countPairs, keys, vals, lo, starts.View(0, bins), outKeys, outVals); err != nil { // step 4
		return err
	}
	return checkFlag(bad, lo, bins)
}
