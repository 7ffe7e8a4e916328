package sorts

import (
	"errors"
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// scanLog is the log2 of the chunk a block scans.
const scanLog = 10

// MaxBins is the widest key range the counting sorts take: 2^30 values
// (4 GiB of bins and positions). Wider ranges want a radix sort.
const MaxBins = 1 << 30

// ErrKeyOutOfRange is returned (wrapped) when a key lies outside the range
// a sort or histogram was given. Nothing is written outside any buffer.
var ErrKeyOutOfRange = errors.New("key outside the declared range")

// Sorter runs the counting sorts, histogram and scan on one device (a GPU,
// or the CPU evaluator: the same code runs on both). It keeps its temporary
// buffers between calls, growing them as needed. A Sorter is not safe for
// use by several goroutines at once.
//
// By default the sorts run the fast pipeline: histogram and occurs
// privatised in shared memory (global atomics only for ranges too wide for
// it), occurs as a bitset, a reduce-then-scan for the positions, and a
// reconstruct in which every block writes an equal tile of the output. The
// option Paper selects the paper's kernels as written.
type Sorter struct {
	dev   runtime.Device
	paper bool
	fn    struct {
		histogram, occurs, scan, distribute, reconstruct, reconstructOnce, keyRange runtime.Function
		occursBits, popcount, reconstructBits, tileStarts, reconstructTiles         runtime.Function
		tileTotals, tileScan                                                        runtime.Function
		histogramWarp, occursBitsWarp, reconstructBitsWarp                          runtime.Function
		sharedHistograms, sharedOccurs                                              []runtime.Function
	}
	wide    wideStrategy
	scratch map[string]*runtime.Buffer[uint32]
}

// kernelLoad is a kernel New builds and loads, and where it keeps it.
type kernelLoad struct {
	fn    *runtime.Function
	build func() *dsl.Kernel
}

// New loads the kernels on dev (compiling them on a GPU, through the
// runtime's cache).
func New(dev runtime.Device, opts ...Option) (*Sorter, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	s := &Sorter{dev: dev, paper: c.paper, wide: defaultWide, scratch: map[string]*runtime.Buffer[uint32]{}}
	s.fn.sharedHistograms = make([]runtime.Function, len(histogramShapes))
	s.fn.sharedOccurs = make([]runtime.Function, len(bitsShapes))
	loads := []kernelLoad{
		{&s.fn.histogram, HistogramKernel},
		{&s.fn.occurs, OccursKernel},
		{&s.fn.scan, func() *dsl.Kernel { return ScanKernel(scanLog) }},
		{&s.fn.distribute, func() *dsl.Kernel { return DistributeKernel(scanLog) }},
		{&s.fn.reconstruct, ReconstructKernel},
		{&s.fn.reconstructOnce, ReconstructOnceKernel},
		{&s.fn.keyRange, RangeKernel},
		{&s.fn.occursBits, GlobalOccursKernel},
		{&s.fn.popcount, PopcountKernel},
		{&s.fn.reconstructBits, BitsReconstructKernel},
		{&s.fn.tileStarts, TileStartsKernel},
		{&s.fn.reconstructTiles, TileReconstructKernel},
		{&s.fn.tileTotals, TileTotalsKernel},
		{&s.fn.tileScan, TileScanKernel},
		{&s.fn.histogramWarp, GlobalHistogramWarpKernel},
		{&s.fn.occursBitsWarp, GlobalOccursWarpKernel},
		{&s.fn.reconstructBitsWarp, BitsReconstructWarpKernel},
	}
	for i, k := range SharedHistogramKernels() {
		loads = append(loads, kernelLoad{&s.fn.sharedHistograms[i], func() *dsl.Kernel { return k }})
	}
	for i, k := range SharedOccursKernels() {
		loads = append(loads, kernelLoad{&s.fn.sharedOccurs[i], func() *dsl.Kernel { return k }})
	}
	for _, l := range loads {
		k, err := l.build().Build()
		if err != nil {
			return nil, err
		}
		if *l.fn, err = dev.Load(k); err != nil {
			return nil, fmt.Errorf("sorts: loading %s: %w", k.Name, err)
		}
	}
	return s, nil
}

// Close frees the Sorter's temporary buffers.
func (s *Sorter) Close() error {
	var errs []error
	for name, b := range s.scratch {
		errs = append(errs, b.Free())
		delete(s.scratch, name)
	}
	return errors.Join(errs...)
}

// buffer returns the scratch buffer called name with at least n elements,
// as a view of exactly n.
func (s *Sorter) buffer(name string, n int) (*runtime.Buffer[uint32], error) {
	b := s.scratch[name]
	if b == nil || b.Len() < n {
		if b != nil {
			delete(s.scratch, name) // even if Free fails, it is not used again
			if err := b.Free(); err != nil {
				return nil, err
			}
		}
		var err error
		if b, err = runtime.Alloc[uint32](s.dev, max(n, 1)); err != nil {
			return nil, err
		}
		s.scratch[name] = b
	}
	return b.View(0, n), nil
}

func (s *Sorter) launch(f runtime.Function, args ...any) error {
	return s.dev.Launch(f, runtime.LaunchConfig{}, args...)
}

// Scan writes the inclusive prefix sums of in to out (which may be in):
// out[i] = in[0] + ... + in[i], wrapping modulo 2^32. The fast pipeline
// scans by reduce-then-scan (TileTotalsKernel, TileScanKernel), the option
// Paper by the paper's sklanskyMax and distribute.
func (s *Sorter) Scan(out, in *runtime.Buffer[uint32]) error {
	if out.Len() != in.Len() {
		return fmt.Errorf("sorts: Scan of %d elements into %d", in.Len(), out.Len())
	}
	return s.inclusiveScan(out, in, s.paper)
}

// ScanExclusive writes the exclusive prefix sums of in to out, which has
// one element more: out[0] = 0, out[i] = in[0] + ... + in[i-1], so the last
// element is the total.
func (s *Sorter) ScanExclusive(out, in *runtime.Buffer[uint32]) error {
	return s.exclusiveScan(out, in, s.paper)
}

// exclusiveScan is ScanExclusive by the paper's scan or the fast one.
func (s *Sorter) exclusiveScan(out, in *runtime.Buffer[uint32], paper bool) error {
	if out.Len() != in.Len()+1 {
		return fmt.Errorf("sorts: ScanExclusive of %d elements into %d (want %d)", in.Len(), out.Len(), in.Len()+1)
	}
	if err := out.View(0, 1).Fill(0); err != nil {
		return err
	}
	if in.Len() == 0 {
		return nil
	}
	return s.inclusiveScan(out.View(1, in.Len()), in, paper)
}

// inclusiveScan is Scan by the paper's scan or the fast one.
func (s *Sorter) inclusiveScan(out, in *runtime.Buffer[uint32], paper bool) error {
	if paper {
		return s.scan(out, in, 0)
	}
	return s.fastScan(out, in, 0)
}

// scan is the global scan of the paper's figure 6: every chunk scanned in
// its own block with its total kept, the totals scanned (recursively), and
// each chunk then raised by the totals before it.
func (s *Sorter) scan(out, in *runtime.Buffer[uint32], level int) error {
	n := in.Len()
	if n == 0 {
		return nil
	}
	chunks := (n + 1<<scanLog - 1) >> scanLog
	totals, err := s.buffer(fmt.Sprintf("totals%d", level), chunks)
	if err != nil {
		return err
	}
	if err := s.launch(s.fn.scan, in, out, totals); err != nil {
		return err
	}
	if chunks == 1 {
		return nil
	}
	sums, err := s.buffer(fmt.Sprintf("sums%d", level), chunks)
	if err != nil {
		return err
	}
	if err := s.scan(sums, totals, level+1); err != nil {
		return err
	}
	return s.launch(s.fn.distribute, sums, out)
}

// Histogram counts the keys in bins: bins[k-lo] is the number of keys equal
// to k. A key outside [lo, lo+len(bins)) is an error wrapping
// ErrKeyOutOfRange.
func (s *Sorter) Histogram(bins, keys *runtime.Buffer[uint32], lo uint32) error {
	if err := bins.Fill(0); err != nil {
		return err
	}
	if s.paper {
		return s.perKey(s.fn.histogram, keys, lo, bins)
	}
	bad, err := s.clearedFlag()
	if err != nil {
		return err
	}
	if err := s.sharedHistogram(bins, keys, lo, bad); err != nil {
		return err
	}
	return checkFlag(bad, lo, bins.Len())
}

// perKey runs a paper per-key kernel (histogram or occurs) and turns its
// flag into an error.
func (s *Sorter) perKey(f runtime.Function, keys *runtime.Buffer[uint32], lo uint32, bins *runtime.Buffer[uint32]) error {
	return s.flagged(keys, lo, bins.Len(), func(bad *runtime.Buffer[uint32]) error {
		return s.launch(f, keys, lo, bins, bad)
	})
}

// flagged runs a per-key kernel through launch (when there are keys) with a
// cleared bad flag, and turns the flag into an error naming the range of
// values values from lo.
func (s *Sorter) flagged(keys *runtime.Buffer[uint32], lo uint32, values int, launch func(bad *runtime.Buffer[uint32]) error) error {
	bad, err := s.clearedFlag()
	if err != nil {
		return err
	}
	if keys.Len() > 0 {
		if err := launch(bad); err != nil {
			return err
		}
	}
	return checkFlag(bad, lo, values)
}

// clearedFlag returns the bad flag, set to 0.
func (s *Sorter) clearedFlag() (*runtime.Buffer[uint32], error) {
	bad, err := s.buffer("bad", 1)
	if err != nil {
		return nil, err
	}
	return bad, bad.Fill(0)
}

// checkFlag returns an error wrapping ErrKeyOutOfRange if a kernel set the
// bad flag: it waits for the kernels before it.
func checkFlag(bad *runtime.Buffer[uint32], lo uint32, values int) error {
	flag, err := bad.ToSlice()
	if err != nil {
		return err
	}
	if flag[0] != 0 {
		return fmt.Errorf("sorts: %w [%d, %d)", ErrKeyOutOfRange, lo, uint64(lo)+uint64(values))
	}
	return nil
}

// checkRange validates a half-open key range and returns its number of
// values.
func checkRange(lo, hi uint32) (int, error) {
	if hi <= lo {
		return 0, fmt.Errorf("sorts: empty key range [%d, %d)", lo, hi)
	}
	if n := uint64(hi) - uint64(lo); n > MaxBins {
		return 0, fmt.Errorf("sorts: key range [%d, %d) has %d values, more than %d", lo, hi, n, MaxBins)
	}
	return int(hi - lo), nil
}

// CountingSort writes the keys, sorted, to out (of the same length). Every
// key must lie in [lo, hi); a key outside is an error wrapping
// ErrKeyOutOfRange, and out is then undefined (but nothing is written
// outside it). A half-open range cannot hold the key 2^32-1: keys that may
// include it are sorted with CountingSortAuto, which finds the range.
func (s *Sorter) CountingSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	bins, err := checkRange(lo, hi)
	if err != nil {
		return err
	}
	_, err = s.countingSort(out, keys, lo, bins, false)
	return err
}

// OccurrenceSort writes the distinct keys, sorted, to the front of out (of
// the same length as keys) and returns how many there are. Keys must lie in
// [lo, hi), as for CountingSort.
func (s *Sorter) OccurrenceSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) (int, error) {
	bins, err := checkRange(lo, hi)
	if err != nil {
		return 0, err
	}
	return s.countingSort(out, keys, lo, bins, true)
}

// PaperCountingSort is CountingSort by the paper's pipeline, whatever the
// Sorter's options.
func (s *Sorter) PaperCountingSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	bins, err := checkRange(lo, hi)
	if err != nil {
		return err
	}
	_, err = s.sortChecked(out, keys, lo, bins, false, true)
	return err
}

// PaperOccurrenceSort is OccurrenceSort by the paper's pipeline, whatever
// the Sorter's options.
func (s *Sorter) PaperOccurrenceSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) (int, error) {
	bins, err := checkRange(lo, hi)
	if err != nil {
		return 0, err
	}
	return s.sortChecked(out, keys, lo, bins, true, true)
}

// countingSort runs the Sorter's pipeline (fast, or the paper's with the
// option Paper). It returns the number of keys written.
func (s *Sorter) countingSort(out, keys *runtime.Buffer[uint32], lo uint32, bins int, unique bool) (int, error) {
	return s.sortChecked(out, keys, lo, bins, unique, s.paper)
}

// sortChecked checks the buffers' lengths and runs the chosen pipeline.
func (s *Sorter) sortChecked(out, keys *runtime.Buffer[uint32], lo uint32, bins int, unique, paper bool) (int, error) {
	if out.Len() != keys.Len() {
		return 0, fmt.Errorf("sorts: sorting %d keys into %d", keys.Len(), out.Len())
	}
	if keys.Len() == 0 {
		return 0, nil
	}
	if keys.Len() > math.MaxUint32 {
		return 0, fmt.Errorf("sorts: %d keys, more than 2^32-1", keys.Len())
	}
	switch {
	case paper:
		return s.paperSort(out, keys, lo, bins, unique)
	case unique:
		return s.fastOccurrenceSort(out, keys, lo, bins)
	}
	return keys.Len(), s.fastCountingSort(out, keys, lo, bins)
}

// paperSort is the paper's pipeline: histogram (or occurs), exclusive scan
// into positions, reconstruct with one thread per value.
func (s *Sorter) paperSort(out, keys *runtime.Buffer[uint32], lo uint32, bins int, unique bool) (int, error) {
	hist, err := s.buffer("hist", bins)
	if err != nil {
		return 0, err
	}
	pos, err := s.buffer("pos", bins+1)
	if err != nil {
		return 0, err
	}
	count, reconstruct := s.fn.histogram, s.fn.reconstruct
	if unique {
		count, reconstruct = s.fn.occurs, s.fn.reconstructOnce
	}
	if err := hist.Fill(0); err != nil {
		return 0, err
	}
	if err := s.perKey(count, keys, lo, hist); err != nil {
		return 0, err
	}
	if err := s.exclusiveScan(pos, hist, true); err != nil {
		return 0, err
	}
	if err := s.launch(reconstruct, pos, lo, out); err != nil {
		return 0, err
	}
	if !unique {
		return keys.Len(), nil
	}
	total, err := pos.View(bins, 1).ToSlice()
	if err != nil {
		return 0, err
	}
	return int(total[0]), nil
}

// KeyRange returns the smallest and the largest key (ok false when there
// are no keys).
func (s *Sorter) KeyRange(keys *runtime.Buffer[uint32]) (lo, hi uint32, ok bool, err error) {
	if keys.Len() == 0 {
		return 0, 0, false, nil
	}
	mm, err := s.buffer("minmax", 2)
	if err != nil {
		return 0, 0, false, err
	}
	if err := mm.CopyFrom([]uint32{math.MaxUint32, 0}); err != nil {
		return 0, 0, false, err
	}
	if err := s.launch(s.fn.keyRange, keys, mm); err != nil {
		return 0, 0, false, err
	}
	r, err := mm.ToSlice()
	if err != nil {
		return 0, 0, false, err
	}
	return r[0], r[1], true, nil
}

// sortAuto finds the key range, then sorts.
func (s *Sorter) sortAuto(out, keys *runtime.Buffer[uint32], unique bool) (int, error) {
	lo, hi, ok, err := s.KeyRange(keys)
	if err != nil || !ok {
		return 0, err
	}
	bins := uint64(hi) - uint64(lo) + 1
	if bins > MaxBins {
		return 0, fmt.Errorf("sorts: keys span [%d, %d], %d values, more than %d", lo, hi, bins, MaxBins)
	}
	return s.countingSort(out, keys, lo, int(bins), unique)
}

// CountingSortAuto is CountingSort with the key range found first (one
// reduction over the keys).
func (s *Sorter) CountingSortAuto(out, keys *runtime.Buffer[uint32]) error {
	_, err := s.sortAuto(out, keys, false)
	return err
}

// OccurrenceSortAuto is OccurrenceSort with the key range found first.
func (s *Sorter) OccurrenceSortAuto(out, keys *runtime.Buffer[uint32]) (int, error) {
	return s.sortAuto(out, keys, true)
}

// onSlices copies keys to the device, runs sort and copies back the first
// n results.
func (s *Sorter) onSlices(keys []uint32, sort func(out, in *runtime.Buffer[uint32]) (int, error)) ([]uint32, error) {
	if len(keys) == 0 {
		return []uint32{}, nil
	}
	in, err := runtime.FromSlice(s.dev, keys)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](s.dev, len(keys))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	n, err := sort(out, in)
	if err != nil {
		return nil, err
	}
	return out.View(0, n).ToSlice()
}

// Sort returns keys sorted, by counting sort over the keys' own range.
func (s *Sorter) Sort(keys []uint32) ([]uint32, error) {
	return s.onSlices(keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
		return s.sortAuto(out, in, false)
	})
}

// SortRange returns keys sorted, by counting sort over [lo, hi).
func (s *Sorter) SortRange(keys []uint32, lo, hi uint32) ([]uint32, error) {
	return s.onSlices(keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
		return in.Len(), s.CountingSort(out, in, lo, hi)
	})
}

// SortUnique returns the distinct keys sorted, by occurrence sort over the
// keys' own range.
func (s *Sorter) SortUnique(keys []uint32) ([]uint32, error) {
	return s.onSlices(keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
		return s.sortAuto(out, in, true)
	})
}

// SortUniqueRange returns the distinct keys sorted, by occurrence sort
// over [lo, hi).
func (s *Sorter) SortUniqueRange(keys []uint32, lo, hi uint32) ([]uint32, error) {
	return s.onSlices(keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
		return s.OccurrenceSort(out, in, lo, hi)
	})
}

// SortInt32 returns int32 keys sorted: they are offset by 2^31 into
// uint32 keys of the same order, sorted, and offset back.
func (s *Sorter) SortInt32(keys []int32) ([]int32, error) {
	u := make([]uint32, len(keys))
	for i, k := range keys {
		u[i] = uint32(k) ^ 1<<31
	}
	sorted, err := s.Sort(u)
	if err != nil {
		return nil, err
	}
	r := make([]int32, len(sorted))
	for i, k := range sorted {
		r[i] = int32(k ^ 1<<31)
	}
	return r, nil
}
