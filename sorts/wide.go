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
	// groupedFrom is the fewest keys whose histogram of a range too wide
	// for shared memory, up to kernels.GroupedMaxBins bins, is counted
	// grouped by the keys' high bits (kernels.GroupTilesKernel and
	// kernels.GroupedHistogramKernel) instead of by global atomics; 0: never.
	groupedFrom int
}

// defaultWide is the strategy a new Sorter takes, the fastest measured at
// 2^25 keys on an H200: the warp-combined histogram for every range too
// wide for shared memory, in windows of 2^23 bins (counting sort 1.8 times
// faster than one pass on random keys of 2^24 values and on a permutation,
// 1.2 times slower on sorted ones, whose later passes skip most warps),
// the warp-combined bitset (4.7 times faster on sorted keys, as fast on
// random ones) and the warp reconstruct from 2^17 words (1.4 to 1.8 times
// faster on full bitsets of 2^19 and 2^20 words, slower on 2^15).
var defaultWide = wideStrategy{perKeyUpTo: 0, window: 1 << 23, warpOccurs: true, warpReconstructWords: 1 << 17,
	groupedFrom: 1 << 20}

// perKey reports whether a global histogram of bins bins takes one atomic
// per key.
func (w wideStrategy) perKey(bins int) bool { return bins <= w.perKeyUpTo }

// grouped reports whether a histogram of n keys into bins bins, too wide
// for shared memory, is counted grouped.
func (w wideStrategy) grouped(bins, n int) bool {
	return w.groupedFrom > 0 && n >= w.groupedFrom && bins <= kernels.GroupedMaxBins
}

// globalHistogram counts the keys into bins (zeroed) in global memory, by
// the Sorter's wide strategy; a key outside the range sets bad. In windows,
// the first pass records every warp's range of bins and the later ones
// skip the warps that miss their window, so that sorted keys cost about
// one pass.
func (s *Sorter) globalHistogram(bins, keys *runtime.Buffer[uint32], lo uint32, bad *runtime.Buffer[uint32]) error {
	if s.wide.grouped(bins.Len(), keys.Len()) {
		return s.groupedHistogram(bins, keys, lo, bad)
	}
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

// groupedNeeds returns the scratch of a grouped histogram of n keys into
// bins bins: the grouped tiles, the buckets' counts, their scan (and the
// scan's own) and their offsets.
func (s *Sorter) groupedNeeds(bins, n int) []need {
	_, buckets := kernels.GroupShift(bins)
	entries := buckets * ceilDiv(n, kernels.GroupTile)
	return append([]need{{&s.sc.tiles, n}, {&s.sc.groupCounts, entries}, {&s.sc.groupRuns, entries + 1},
		{&s.sc.tileOffsets, entries}}, s.scanNeeds(entries, false)...)
}

// groupedHistogram counts the keys into bins (zeroed, at most
// kernels.GroupedMaxBins) grouped by their high bits: the tiles grouped
// by bucket, the exclusive scan of the buckets' counts, and the blocks'
// equal shares counted in shared memory. A key outside the range sets
// bad. The scratch of groupedNeeds is reserved.
func (s *Sorter) groupedHistogram(bins, keys *runtime.Buffer[uint32], lo uint32, bad *runtime.Buffer[uint32]) error {
	n := keys.Len()
	shift, buckets := kernels.GroupShift(bins.Len())
	entries := buckets * ceilDiv(n, kernels.GroupTile)
	grouped, err := take(s.sc.tiles, n)
	if err != nil {
		return err
	}
	counts, err := take(s.sc.groupCounts, entries)
	if err != nil {
		return err
	}
	runs, err := take(s.sc.groupRuns, entries+1)
	if err != nil {
		return err
	}
	offsets, err := take(s.sc.tileOffsets, entries)
	if err != nil {
		return err
	}
	if err := s.launch(s.fn.groupTiles, keys, lo, uint32(shift), uint32(buckets), grouped, counts, offsets); err != nil {
		return err
	}
	if err := s.exclusiveScan(runs, counts, false); err != nil {
		return err
	}
	// Each block counts an equal share of the keys: as many as the GPU
	// keeps resident, but at least a tile's keys each.
	parts := min(s.parts(s.fn.groupedHistogram), ceilDiv(n, kernels.GroupTile))
	return s.launch(s.fn.groupedHistogram, grouped, runs, offsets, lo, uint32(shift), uint32(buckets), uint32(parts), bins, bad)
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
