package sorts

import (
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// wideStrategy says how the fast pipeline builds tables too wide for
// shared memory, and how it reconstructs from a bitset.
type wideStrategy struct {
	// perKeyUpTo is the most bins a global histogram counts with one atomic
	// per key (kernels.HistogramKernel); wider ones run the warp-combined
	// kernel (kernels.GlobalHistogramWarpKernel), whose warps give one
	// atomic per distinct key, so that hot keys do not serialise in the L2
	// cache.
	perKeyUpTo int
	// window is the number of bins the warp-combined histogram updates in
	// one pass over the keys, so that a pass's atomics stay in the L2
	// cache; 0 for one pass however wide the table.
	window int
	// warpOccurs selects the warp-combined global bitset
	// (kernels.GlobalOccursWarpKernel) over one test-before-set per key.
	warpOccurs bool
	// warpReconstructWords is the fewest words of a bitset reconstructed
	// by kernels.BitsReconstructWarpKernel (whose warps write a word's values
	// together); smaller bitsets have a thread write each word.
	warpReconstructWords int
}

// defaultWide is the strategy a new Sorter takes, the fastest measured at
// 2^25 keys on an H200: the warp-combined histogram for every range too
// wide for shared memory, in windows of 2^23 bins (counting sort 1.8 times
// faster than one pass on random keys of 2^24 values and on a permutation,
// 1.2 times slower on sorted ones, whose later passes skip most warps),
// the warp-combined bitset (4.7 times faster on sorted keys, as fast on
// random ones) and the warp reconstruct from 2^17 words (1.4 to 1.8 times
// faster on full bitsets of 2^19 and 2^20 words, slower on 2^15).
var defaultWide = wideStrategy{perKeyUpTo: 0, window: 1 << 23, warpOccurs: true, warpReconstructWords: 1 << 17}

// perKey reports whether a global histogram of bins bins takes one atomic
// per key.
func (w wideStrategy) perKey(bins int) bool { return bins <= w.perKeyUpTo }

// globalHistogram counts the keys into bins (zeroed) in global memory, by
// the Sorter's wide strategy; a key outside the range sets bad. In windows,
// the first pass records every warp's range of bins and the later ones
// skip the warps that miss their window, so that sorted keys cost about
// one pass.
func (s *Sorter) globalHistogram(bins, keys *runtime.Buffer[uint32], lo uint32, bad *runtime.Buffer[uint32]) error {
	if s.wide.perKey(bins.Len()) {
		return s.launch(s.fn.histogram, keys, lo, bins, bad)
	}
	ranges, err := take(s.sc.warpRanges, kernels.WarpRanges(keys.Len()))
	if err != nil {
		return err
	}
	window := s.wide.window
	if window == 0 {
		window = bins.Len()
	}
	for from := 0; from < bins.Len(); from += window {
		count := min(window, bins.Len()-from)
		record := uint32(0)
		if from == 0 {
			record = 1
		}
		if err := s.launch(s.fn.histogramWarp, keys, lo, uint32(bins.Len()), uint32(from), uint32(count), bins, bad, ranges, record); err != nil {
			return err
		}
	}
	return nil
}

// globalOccurs sets the bits of the keys in set (zeroed, a bit per value
// of [lo, lo+bins)) in global memory, by the Sorter's wide strategy; a key
// outside the range sets bad.
func (s *Sorter) globalOccurs(set, keys *runtime.Buffer[uint32], lo uint32, bins int, bad *runtime.Buffer[uint32]) error {
	if !s.wide.warpOccurs {
		return s.launch(s.fn.occursBits, keys, lo, uint32(bins), set, bad)
	}
	return s.launch(s.fn.occursBitsWarp, keys, lo, uint32(bins), uint32(0), uint32(set.Len()), set, bad)
}

// reconstructFromBits writes the values of the bits of set to out, from
// the positions pos of the words, by the Sorter's wide strategy.
func (s *Sorter) reconstructFromBits(set, pos *runtime.Buffer[uint32], lo uint32, out *runtime.Buffer[uint32]) error {
	if set.Len() >= s.wide.warpReconstructWords {
		return s.launch(s.fn.reconstructBitsWarp, set, pos, lo, out)
	}
	return s.launch(s.fn.reconstructBits, set, pos, lo, out)
}
