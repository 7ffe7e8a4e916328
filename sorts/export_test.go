package sorts

import (
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// SetWide sets the Sorter's strategy for tables too wide for shared
// memory and for the reconstruct from a bitset (see wideStrategy), so that
// the tests can check and time every variant.
func (s *Sorter) SetWide(perKeyUpTo, window int, warpOccurs bool, warpReconstructWords int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wide = wideStrategy{perKeyUpTo: perKeyUpTo, window: window, warpOccurs: warpOccurs, warpReconstructWords: warpReconstructWords}
}

// SetRadixShape makes the radix sort's passes run with the given shape,
// so that the tests reach many tiles with few keys; the zero shape
// restores the default.
func (s *Sorter) SetRadixShape(shape kernels.RadixShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.radixShape = shape
}

// SetBlockShape makes the radix sort sort up to shape.Tile() keys in one
// block of the given shape, and more by its passes; the zero shape
// restores the default.
func (s *Sorter) SetBlockShape(shape kernels.RadixShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blockShape = shape
}

// SetBlockCountShape makes SortKeys count the keys of a range of up to
// kernels.BlockCountMaxBins values in one block of the given shape where
// its tile holds them, or never for Threads -1; the zero shape restores
// the default.
func (s *Sorter) SetBlockCountShape(shape kernels.BlockCountShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.countShape = shape
}

// SetRankSortWarps makes the radix sort rank up to
// kernels.RankSortMaxKeys keys in blocks of warps warps, or never for -1;
// 0 restores the default.
func (s *Sorter) SetRankSortWarps(warps int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rankWarps = warps
}

// SetCountingAbove makes the cost model pick counting sort for more than
// keys keys in ranges of up to upTo values, and the radix sort for up to
// keys keys, so that the tests reach both with few keys.
func (s *Sorter) SetCountingAbove(keys int, upTo uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.costModel = []countingLimit{{keys: keys}, {keys: keys + 1, wins: []valueSpan{{0, upTo}}}}
}

// SetRadixEpoch makes the radix sort's next pass take look-back epoch e
// on the status words it last used, as if that many passes had run since
// they were zeroed.
func (s *Sorter) SetRadixEpoch(e uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.radixLookBack.epoch = e
}

// Picked returns the name of the algorithm SortKeys picks for n keys in a
// range of bins values.
func (s *Sorter) Picked(n int, bins uint64) string {
	return [...]string{blockCountAlgorithm: "blockCount", blockAlgorithm: "block", countingAlgorithm: "counting", radixAlgorithm: "radix"}[s.pick(n, bins)]
}

// SetMostParts makes the shared-table kernels split their keys into at
// most parts parts; 0 restores the default.
func (s *Sorter) SetMostParts(parts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mostParts = parts
}

// ScanStarts runs kernels.ScanStartsKernel on hist (at most
// kernels.ScanStartsMaxBins counts), writing pos (one longer) and starts
// (a tile's start each, and one more).
func (s *Sorter) ScanStarts(pos, starts, hist *runtime.Buffer[uint32]) error {
	_, err := s.locked(func() (int, error) { return 0, s.launch(s.fn.scanStarts, hist, pos, starts) })
	return err
}
