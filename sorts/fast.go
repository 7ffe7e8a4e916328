package sorts

import (
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// How the shared-table kernels split their keys: at least keysPerThread
// keys per thread, at most as many parts as the GPU keeps blocks of the
// kernel resident (one wave: on an H200 at 2^25 keys, 792 parts of the
// 256-thread histogram counted 16 values in 0.059 ms against 0.074 with
// 1024, whose second wave ran under a third full), or maxParts on a device that
// does not say, and few enough parts that merging the blocks' tables into
// the global one costs at most one atomic per mergeRatio keys.
const (
	keysPerThread = 16
	maxParts      = 1024
	mergeRatio    = 8
	// maxSlices is the most slices a shared table is cut into; wider
	// tables use global atomics, as every block would read all its keys
	// once per slice.
	maxSlices = 4
)

// The shapes of the shared tables, smallest first: the Sorter takes the
// first whose capacity holds the table, and the last, sliced, for tables up
// to maxSlices times its capacity.
var (
	histogramShapes = kernels.HistogramShapes()
	bitsShapes      = kernels.BitsShapes()
)

// ceilDiv returns a/b rounded up, for a >= 0 and b > 0, without
// overflow.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// sharedPlan is a launch of a shared-table kernel: which kernel, how many
// key parts and table slices.
type sharedPlan struct {
	fn            runtime.Function
	parts, slices int
}

// parts returns the most key parts of a kernel fn whose blocks each count
// a part of the keys into a table of their own (the shared-table kernels,
// the radix sort's histogram): the blocks of it the GPU keeps resident, or
// maxParts.
func (s *Sorter) parts(fn runtime.Function) int {
	if s.mostParts > 0 {
		return s.mostParts
	}
	if d, ok := s.dev.(interface{ ResidentBlocks(runtime.Function) int }); ok {
		if n := d.ResidentBlocks(fn); n > 0 {
			return n
		}
	}
	return maxParts
}

// planShared chooses the shape for a table of cells cells over n keys: the
// first that holds it, or the last cut into at most maxSlices slices, in at
// most mostParts(its kernel) key parts; ok is false when the table is wider
// than that.
func planShared(fns []runtime.Function, shapes []kernels.TableShape, cells, n int, mostParts func(runtime.Function) int) (p sharedPlan, ok bool) {
	i := len(shapes) - 1
	for j, shape := range shapes {
		if cells <= shape.Capacity {
			i = j
			break
		}
	}
	shape := shapes[i]
	slices := max(ceilDiv(cells, shape.Capacity), 1)
	if slices > maxSlices {
		return sharedPlan{}, false
	}
	used := min(cells, shape.Capacity)
	parts := min(ceilDiv(n, shape.Threads*keysPerThread), mostParts(fns[i]), max(1, n/(mergeRatio*max(used, 1)*slices)))
	return sharedPlan{fn: fns[i], parts: max(parts, 1), slices: slices}, true
}

// launchShared runs a shared-table kernel, which sets bad for a key
// outside [lo, lo+bins).
func (s *Sorter) launchShared(p sharedPlan, table, keys *runtime.Buffer[uint32], lo uint32, bins int, bad *runtime.Buffer[uint32]) error {
	return s.launch(p.fn, keys, lo, uint32(bins), uint32(p.parts), uint32(p.slices), table, bad)
}

// histogramNeeds returns the scratch the fast histogram of n keys into
// bins bins takes: the warps' ranges when it runs the warp-combined kernel.
func (s *Sorter) histogramNeeds(bins, n int) []need {
	if _, ok := planShared(s.fn.sharedHistograms, histogramShapes, bins, n, s.parts); ok || s.wide.perKey(bins) {
		return nil
	}
	return []need{{&s.sc.warpRanges, kernels.WarpRanges(n)}}
}

// sharedHistogram counts the keys into bins (zeroed) with the counters in
// shared memory, or in global memory (globalHistogram) when the range is
// too wide; a key outside the range sets bad. The scratch of
// histogramNeeds is reserved.
func (s *Sorter) sharedHistogram(bins, keys *runtime.Buffer[uint32], lo uint32, bad *runtime.Buffer[uint32]) error {
	if keys.Len() == 0 {
		return nil
	}
	p, ok := planShared(s.fn.sharedHistograms, histogramShapes, bins.Len(), keys.Len(), s.parts)
	if !ok {
		return s.globalHistogram(bins, keys, lo, bad)
	}
	return s.launchShared(p, bins, keys, lo, bins.Len(), bad)
}

// fastCountingSort is counting sort by shared histogram, scan and tile
// reconstruct, on checked arguments.
func (s *Sorter) fastCountingSort(out, keys *runtime.Buffer[uint32], lo uint32, bins int) error {
	bad, err := s.enqueueCountingSort(out, keys, lo, bins, nil)
	if err != nil {
		return err
	}
	return checkFlag(bad, lo, bins)
}

// enqueueCountingSort enqueues fastCountingSort's launches. A key outside
// the range sets flag[0], or, for a nil flag, a word cleared with the
// counts; it returns the flag set, unread.
func (s *Sorter) enqueueCountingSort(out, keys *runtime.Buffer[uint32], lo uint32, bins int, flag *runtime.Buffer[uint32]) (*runtime.Buffer[uint32], error) {
	n := keys.Len()
	tiles := ceilDiv(n, kernels.TileSize)
	// hist holds the counts and the bad flag after them, so that one
	// memset clears both.
	needs := []need{{&s.sc.hist, bins + 1}, {&s.sc.pos, bins + 1}, {&s.sc.starts, tiles + 1}}
	needs = append(needs, s.histogramNeeds(bins, n)...)
	oneBlock := bins <= kernels.ScanStartsMaxBins
	if !oneBlock {
		needs = append(needs, s.scanNeeds(bins, false)...)
	}
	if err := s.reserve(request{op: "counting sort", keys: n, values: bins, written: max(bins+1, n)}, needs...); err != nil {
		return nil, err
	}
	table, err := take(s.sc.hist, bins+1)
	if err != nil {
		return nil, err
	}
	if err := table.FillOn(s.stream, 0); err != nil {
		return nil, err
	}
	hist, bad := table.View(0, bins), table.View(bins, 1)
	if flag != nil {
		bad = flag
	}
	pos, err := take(s.sc.pos, bins+1)
	if err != nil {
		return nil, err
	}
	starts, err := take(s.sc.starts, tiles+1)
	if err != nil {
		return nil, err
	}
	// A key out of range is not counted, so the positions stay inside out:
	// the flag is read once, at the end.
	if err := s.sharedHistogram(hist, keys, lo, bad); err != nil {
		return nil, err
	}
	if err := s.scanStarts(pos, starts, hist, oneBlock); err != nil {
		return nil, err
	}
	if err := s.launch(s.fn.reconstructTiles, pos, starts, lo, out); err != nil {
		return nil, err
	}
	return bad, nil
}

// scanStarts writes the exclusive scan of hist (and its total) to pos and
// the value of each output tile's first key to starts: in one launch of
// one block for oneBlock (at most kernels.ScanStartsMaxBins values), else
// by the fast scan and kernels.TileStartsKernel.
func (s *Sorter) scanStarts(pos, starts, hist *runtime.Buffer[uint32], oneBlock bool) error {
	if oneBlock {
		return s.launch(s.fn.scanStarts, hist, pos, starts)
	}
	if err := s.exclusiveScan(pos, hist, false); err != nil {
		return err
	}
	return s.launch(s.fn.tileStarts, pos, starts)
}

// bitsToKeys writes to out the values whose bits are set in set, from lo
// on, and their number to pos[len(set)]: in one launch of one block for a
// bitset of at most kernels.BitsBlockWords words, else by a popcount of
// every word into counts, their exclusive scan into pos and the
// reconstruct.
func (s *Sorter) bitsToKeys(out, set, counts, pos *runtime.Buffer[uint32], lo uint32) error {
	words := set.Len()
	if words <= kernels.BitsBlockWords {
		return s.launch(s.fn.reconstructBitsBlock, set, lo, pos.View(words, 1), out)
	}
	if err := s.launch(s.fn.popcount, set, counts); err != nil {
		return err
	}
	if err := s.exclusiveScan(pos, counts, false); err != nil {
		return err
	}
	return s.reconstructFromBits(set, pos, lo, out)
}

// fastOccurrenceSort is occurrence sort by a bitset (in shared memory when
// it fits), popcounts, scan and reconstruct from the bits, on checked
// arguments. It returns the number of distinct keys.
func (s *Sorter) fastOccurrenceSort(out, keys *runtime.Buffer[uint32], lo uint32, bins int) (int, error) {
	n := keys.Len()
	words := ceilDiv(bins, 32)
	// pos holds the scan, the total after it and the bad flag after that,
	// so that one copy to the host reads the total and the flag.
	needs := append([]need{{&s.sc.bits, words}, {&s.sc.hist, words}, {&s.sc.pos, words + 2}}, s.scanNeeds(words, false)...)
	if err := s.reserve(request{op: "occurrence sort", keys: n, values: bins, written: max(words+1, min(n, bins))}, needs...); err != nil {
		return 0, err
	}
	set, err := take(s.sc.bits, words)
	if err != nil {
		return 0, err
	}
	counts, err := take(s.sc.hist, words)
	if err != nil {
		return 0, err
	}
	status, err := take(s.sc.pos, words+2)
	if err != nil {
		return 0, err
	}
	pos, bad := status.View(0, words+1), status.View(words+1, 1)
	if err := bad.FillOn(s.stream, 0); err != nil {
		return 0, err
	}
	if err := set.FillOn(s.stream, 0); err != nil {
		return 0, err
	}
	if p, ok := planShared(s.fn.sharedOccurs, bitsShapes, words, n, s.parts); ok {
		err = s.launchShared(p, set, keys, lo, bins, bad)
	} else {
		err = s.globalOccurs(set, keys, lo, bins, bad)
	}
	if err != nil {
		return 0, err
	}
	if err := s.bitsToKeys(out, set, counts, pos, lo); err != nil {
		return 0, err
	}
	totalAndBad, err := status.View(words, 2).ToSlice()
	if err != nil {
		return 0, err
	}
	if totalAndBad[1] != 0 {
		return 0, keyOutOfRange(lo, bins)
	}
	return int(totalAndBad[0]), nil
}
