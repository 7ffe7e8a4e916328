package sorts

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"reflect"
	goruntime "runtime"
	"sync"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// scanLog is the log2 of the chunk a block scans.
const scanLog = 10

// MaxBins is the widest key range the counting sorts take: 2^30 values
// (4 GiB of bins and 4 GiB of positions). Wider ranges want a radix sort.
const MaxBins = 1 << 30

// Sorter runs the counting sorts, histogram and scan on one device (a GPU,
// or the CPU evaluator: the same code runs on both). It keeps its temporary
// buffers between calls, growing them as needed. A Sorter is safe for use
// by several goroutines: its calls share the temporary buffers, so they
// run one at a time. It queues its work on the default stream, or on the
// stream of the option OnStream, so that Sorters on different streams may
// run at the same time.
//
// By default the sorts run the fast pipeline: histogram and occurs
// privatised in shared memory (global atomics only for ranges too wide for
// it), occurs as a bitset, a reduce-then-scan for the positions, and a
// reconstruct in which every block writes an equal tile of the output. The
// option Paper selects the paper's kernels as written.
//
// Every method checks its arguments first and returns an error naming the
// bad one (see the package's errors and BufferError), and checks the cost
// of the call before it allocates or launches anything (see ErrTooLarge).
// The zero Sorter is not usable: make one with New, and do not copy it.
type Sorter struct {
	mu    sync.Mutex // held for the whole of every call
	dev   runtime.Device
	paper bool
	// stream is where the Sorter queues its work; nil: the default stream.
	stream runtime.Stream
	closed bool
	fn     struct {
		histogram, occurs, scan, distribute, reconstruct, reconstructOnce, keyRange runtime.Function
		occursBits, popcount, reconstructBits, tileStarts, reconstructTiles         runtime.Function
		tileTotals, tileScan, scanStarts                                            runtime.Function
		histogramWarp, occursBitsWarp, reconstructBitsWarp, reconstructBitsBlock    runtime.Function
		sharedHistograms, sharedOccurs                                              []runtime.Function
	}
	wide   wideStrategy
	sc     scratch
	papers papersFns // the papers' sorts' kernels, loaded by the first call of one
	// radix holds the radix sort's kernels, loaded on first use;
	// radixShape, when not zero, replaces the shape of their blocks,
	// blockShape, when not zero, the block sort's, and rankWarps, when not
	// zero, the rank sort's warps (-1: no rank sort), and countShape,
	// when not zero, the block counting sort's (Threads -1: none).
	radix      map[radixKernelKey]runtime.Function
	radixShape kernels.RadixShape
	blockShape kernels.RadixShape
	rankWarps  int
	countShape kernels.BlockCountShape
	// gpu is what the device says of itself (a GPU's runtime.Properties),
	// zero when it says nothing (the CPU evaluator).
	gpu runtime.Properties
	// costModel, when not nil, replaces countingLimits.
	costModel []countingLimit
	// mostParts, when not zero, is the most key parts of every
	// shared-table kernel (see Sorter.parts).
	mostParts int
	// radixLookBack is the state of the radix sort's look-back words,
	// radixCountsState that of its counts.
	radixLookBack    lookBackState
	radixCountsState countsState
	// enqueued holds the range checks EnqueueCountingSort left on the
	// device for Wait.
	enqueued enqueuedChecks
	// launchArgs is launch's list of arguments, kept between launches.
	launchArgs []any
}

// propertiesOf returns what dev says of itself (runtime.Properties), or
// zero properties when it says nothing: the CPU evaluator, which runs a
// launch's blocks one after another.
func propertiesOf(dev runtime.Device) runtime.Properties {
	if d, ok := dev.(interface {
		Properties() (runtime.Properties, error)
	}); ok {
		if p, err := d.Properties(); err == nil {
			return p
		}
	}
	return runtime.Properties{}
}

// kernelLoad is a kernel New builds and loads, and where it keeps it.
type kernelLoad struct {
	fn    *runtime.Function
	build func() *dsl.Kernel
}

// New loads the kernels on dev (compiling them on a GPU, through the
// runtime's cache). A process builds each kernel once: a later Sorter, on
// any device, only loads what the first one built.
func New(dev runtime.Device, opts ...Option) (*Sorter, error) {
	if v := reflect.ValueOf(dev); dev == nil || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("sorts: %w: New was given a nil device (%T)", ErrNoDevice, dev)
	}
	var c config
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("sorts: %w: New: option %d is nil", ErrBadOption, i)
		}
		o(&c)
	}
	if err := checkStream(dev, c.stream); err != nil {
		return nil, err
	}
	s := &Sorter{dev: dev, paper: c.paper, stream: c.stream, wide: defaultWide, gpu: propertiesOf(dev)}
	s.fn.sharedHistograms = make([]runtime.Function, len(histogramShapes))
	s.fn.sharedOccurs = make([]runtime.Function, len(bitsShapes))
	loads := []kernelLoad{
		{&s.fn.histogram, kernels.HistogramKernel},
		{&s.fn.occurs, kernels.OccursKernel},
		{&s.fn.scan, func() *dsl.Kernel { return kernels.ScanKernel(scanLog) }},
		{&s.fn.distribute, func() *dsl.Kernel { return kernels.DistributeKernel(scanLog) }},
		{&s.fn.reconstruct, kernels.ReconstructKernel},
		{&s.fn.reconstructOnce, kernels.ReconstructOnceKernel},
		{&s.fn.keyRange, kernels.RangeKernel},
		{&s.fn.occursBits, kernels.GlobalOccursKernel},
		{&s.fn.popcount, kernels.PopcountKernel},
		{&s.fn.reconstructBits, kernels.BitsReconstructKernel},
		{&s.fn.tileStarts, kernels.TileStartsKernel},
		{&s.fn.scanStarts, kernels.ScanStartsKernel},
		{&s.fn.reconstructTiles, kernels.TileReconstructKernel},
		{&s.fn.tileTotals, kernels.TileTotalsKernel},
		{&s.fn.tileScan, kernels.TileScanKernel},
		{&s.fn.histogramWarp, kernels.GlobalHistogramWarpKernel},
		{&s.fn.occursBitsWarp, kernels.GlobalOccursWarpKernel},
		{&s.fn.reconstructBitsWarp, kernels.BitsReconstructWarpKernel},
		{&s.fn.reconstructBitsBlock, kernels.BitsReconstructBlockKernel},
	}
	for i, sh := range histogramShapes {
		loads = append(loads, kernelLoad{&s.fn.sharedHistograms[i], func() *dsl.Kernel { return kernels.SharedHistogramKernel(sh) }})
	}
	for i, sh := range bitsShapes {
		loads = append(loads, kernelLoad{&s.fn.sharedOccurs[i], func() *dsl.Kernel { return kernels.SharedOccursKernel(sh) }})
	}
	if err := s.load("sorter", loads); err != nil {
		return nil, err
	}
	return s, nil
}

// load builds the kernels of loads, the list named list (once in a process:
// see built), and loads them on the Sorter's device, several at once (a GPU
// compiles different kernels in parallel), and returns the first error in
// the order of loads.
func (s *Sorter) load(list string, loads []kernelLoad) error {
	errs := make([]error, len(loads))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(loads), goruntime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				errs[i] = s.loadOne(loadKey{list, i}, loads[i])
			}
		})
	}
	for i := range loads {
		next <- i
	}
	close(next)
	wg.Wait()
	return cmp.Or(errs...)
}

// loadOne builds l's kernel, known by key, and loads it on the Sorter's
// device.
func (s *Sorter) loadOne(key loadKey, l kernelLoad) error {
	k, err := built(key, l.build)
	if err != nil {
		return err
	}
	if *l.fn, err = s.dev.Load(k); err != nil {
		return fmt.Errorf("sorts: loading %s: %w", k.Name, err)
	}
	return nil
}

// Close frees the Sorter's temporary buffers. Later calls return an error
// wrapping ErrClosed; closing again does nothing.
func (s *Sorter) Close() error {
	_, err := s.locked(func() (int, error) {
		s.closed = true
		return 0, errors.Join(s.sc.release(), s.enqueued.release())
	})
	if errors.Is(err, ErrClosed) {
		return nil
	}
	return err
}

// locked runs call with the Sorter locked, once it has checked that the
// Sorter is usable.
func (s *Sorter) locked(call func() (int, error)) (int, error) {
	if s == nil {
		return 0, fmt.Errorf("sorts: %w: nil Sorter", ErrNoDevice)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.dev == nil:
		return 0, fmt.Errorf("sorts: %w: the Sorter was not made by New", ErrNoDevice)
	case s.closed:
		return 0, fmt.Errorf("sorts: %w", ErrClosed)
	}
	return call()
}

// launch runs f on the Sorter's device. A launch the device has no memory
// for (the CPU evaluator's state for a kernel's shared memory, which the
// up-front check does not count) fails with ErrTooLarge as well.
func (s *Sorter) launch(f runtime.Function, args ...any) error {
	// The arguments go to the device through a list the Sorter keeps
	// (every launch runs under s.mu), so that args, which the device's
	// Launch would take as escaping, stays on the caller's stack.
	s.launchArgs = append(s.launchArgs[:0], args...)
	err := s.dev.Launch(f, runtime.LaunchConfig{Stream: s.stream}, s.launchArgs...)
	clear(s.launchArgs) // holding no buffer alive
	if errors.Is(err, runtime.ErrOutOfMemory) {
		return fmt.Errorf("sorts: %w: %w", ErrTooLarge, err)
	}
	return err
}

// Scan writes the inclusive prefix sums of in to out, of the same length:
// out[i] = in[0] + ... + in[i], wrapping modulo 2^32. out may be in itself;
// otherwise they must be separate allocations. The fast pipeline scans by
// reduce-then-scan (kernels.TileTotalsKernel, kernels.TileScanKernel), the
// option Paper by the paper's sklanskyMax and distribute.
func (s *Sorter) Scan(out, in *runtime.Buffer[uint32]) error {
	_, err := s.locked(func() (int, error) {
		if err := errors.Join(s.checkBuffer("out", out), s.checkBuffer("in", in)); err != nil {
			return 0, err
		}
		if err := checkKernelLen("in", in); err != nil {
			return 0, err
		}
		if out.Len() != in.Len() {
			return 0, &BufferError{Arg: "out", Err: fmt.Errorf("%d elements for the scan of %d: want as many", out.Len(), in.Len())}
		}
		if err := checkSeparate("out", out, "in", in, true); err != nil {
			return 0, err
		}
		if err := s.reserve(request{op: "scan", keys: in.Len(), written: in.Len()}, s.scanNeeds(in.Len(), s.paper)...); err != nil {
			return 0, err
		}
		return 0, s.inclusiveScan(out, in, s.paper)
	})
	return err
}

// ScanExclusive writes the exclusive prefix sums of in to out, which has
// one element more: out[0] = 0, out[i] = in[0] + ... + in[i-1], so the last
// element is the total. out and in must be separate allocations.
func (s *Sorter) ScanExclusive(out, in *runtime.Buffer[uint32]) error {
	_, err := s.locked(func() (int, error) {
		if err := errors.Join(s.checkBuffer("out", out), s.checkBuffer("in", in)); err != nil {
			return 0, err
		}
		if err := checkKernelLen("in", in); err != nil {
			return 0, err
		}
		if out.Len() != in.Len()+1 {
			return 0, &BufferError{Arg: "out", Err: fmt.Errorf("%d elements for the exclusive scan of %d: want %d", out.Len(), in.Len(), in.Len()+1)}
		}
		if err := checkSeparate("out", out, "in", in, false); err != nil {
			return 0, err
		}
		if err := s.reserve(request{op: "exclusive scan", keys: in.Len(), written: in.Len() + 1}, s.scanNeeds(in.Len(), s.paper)...); err != nil {
			return 0, err
		}
		return 0, s.exclusiveScan(out, in, s.paper)
	})
	return err
}

// Histogram counts the keys in bins: bins[k-lo] is the number of keys equal
// to k. A key outside [lo, lo+len(bins)) is an error wrapping
// ErrKeyOutOfRange (with no bins, every key is); bins past the largest key
// (lo+len(bins) > 2^32) are an error wrapping ErrBadRange. bins and keys
// must be separate allocations.
func (s *Sorter) Histogram(bins, keys *runtime.Buffer[uint32], lo uint32) error {
	_, err := s.locked(func() (int, error) {
		if err := errors.Join(s.checkBuffer("bins", bins), s.checkBuffer("keys", keys)); err != nil {
			return 0, err
		}
		if err := errors.Join(checkKernelLen("bins", bins), checkKernelLen("keys", keys)); err != nil {
			return 0, err
		}
		if err := checkSeparate("bins", bins, "keys", keys, false); err != nil {
			return 0, err
		}
		if err := checkBins(lo, bins.Len()); err != nil {
			return 0, err
		}
		return 0, s.histogram(bins, keys, lo)
	})
	return err
}

// histogram is Histogram on checked arguments.
func (s *Sorter) histogram(bins, keys *runtime.Buffer[uint32], lo uint32) error {
	n, values := keys.Len(), bins.Len()
	needs := []need{{&s.sc.bad, 1}}
	if !s.paper {
		needs = append(needs, s.histogramNeeds(values, n)...)
	}
	if err := s.reserve(request{op: "histogram", keys: n, values: values, written: values}, needs...); err != nil {
		return err
	}
	if err := bins.FillOn(s.stream, 0); err != nil {
		return err
	}
	switch {
	case n == 0:
		return nil
	case values == 0:
		return fmt.Errorf("sorts: %w [%d, %d): there are no bins", ErrKeyOutOfRange, lo, lo)
	case s.paper:
		return s.perKey(s.fn.histogram, keys, lo, bins)
	}
	bad, err := s.clearedFlag()
	if err != nil {
		return err
	}
	if err := s.sharedHistogram(bins, keys, lo, bad); err != nil {
		return err
	}
	return checkFlag(bad, lo, values)
}

// perKey runs a paper per-key kernel (histogram or occurs) and turns its
// flag into an error.
func (s *Sorter) perKey(f runtime.Function, keys *runtime.Buffer[uint32], lo uint32, bins *runtime.Buffer[uint32]) error {
	bad, err := s.clearedFlag()
	if err != nil {
		return err
	}
	if keys.Len() > 0 {
		if err := s.launch(f, keys, lo, bins, bad); err != nil {
			return err
		}
	}
	return checkFlag(bad, lo, bins.Len())
}

// clearedFlag returns the bad flag (reserved), set to 0.
func (s *Sorter) clearedFlag() (*runtime.Buffer[uint32], error) {
	bad, err := take(s.sc.bad, 1)
	if err != nil {
		return nil, err
	}
	return bad, bad.FillOn(s.stream, 0)
}

// checkFlag returns an error wrapping ErrKeyOutOfRange if a kernel set the
// bad flag: it waits for the kernels before it.
func checkFlag(bad *runtime.Buffer[uint32], lo uint32, values int) error {
	flag, err := bad.ToSlice()
	if err != nil {
		return err
	}
	if flag[0] != 0 {
		return keyOutOfRange(lo, values)
	}
	return nil
}

// CountingSort writes the keys, sorted, to out (of the same length, and
// possibly keys itself or overlapping it: every key is read before out is
// written). Every key must lie in [lo, hi); a key outside is an error
// wrapping ErrKeyOutOfRange, and out is then undefined (but nothing is
// written outside it). A half-open range cannot hold the key 2^32-1: keys
// that may include it are sorted with CountingSortAuto, which finds the
// range.
func (s *Sorter) CountingSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	_, err := s.sortRange(out, keys, lo, hi, false, s.paperPipeline())
	return err
}

// OccurrenceSort writes the distinct keys, sorted, to the front of out (of
// the same length as keys) and returns how many there are. Keys must lie in
// [lo, hi), as for CountingSort.
func (s *Sorter) OccurrenceSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) (int, error) {
	return s.sortRange(out, keys, lo, hi, true, s.paperPipeline())
}

// paperPipeline reports whether the Sorter was made with the option Paper;
// false for a nil Sorter, which sortRange then refuses. The option is set
// once, by New, so it is read without the lock.
func (s *Sorter) paperPipeline() bool { return s != nil && s.paper }

// PaperCountingSort is CountingSort by the paper's pipeline, whatever the
// Sorter's options.
func (s *Sorter) PaperCountingSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	_, err := s.sortRange(out, keys, lo, hi, false, true)
	return err
}

// PaperOccurrenceSort is OccurrenceSort by the paper's pipeline, whatever
// the Sorter's options.
func (s *Sorter) PaperOccurrenceSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) (int, error) {
	return s.sortRange(out, keys, lo, hi, true, true)
}

// sortRange checks the arguments of a sort over [lo, hi) and runs it by
// the chosen pipeline.
func (s *Sorter) sortRange(out, keys *runtime.Buffer[uint32], lo, hi uint32, unique, paper bool) (int, error) {
	return s.locked(func() (int, error) {
		bins, err := checkRange(lo, hi)
		if err != nil {
			return 0, err
		}
		if err := s.checkSortBuffers(out, keys); err != nil {
			return 0, err
		}
		return s.sort(out, keys, lo, bins, unique, paper)
	})
}

// sort runs a pipeline on checked arguments and returns the number of keys
// written.
func (s *Sorter) sort(out, keys *runtime.Buffer[uint32], lo uint32, bins int, unique, paper bool) (int, error) {
	switch {
	case keys.Len() == 0:
		return 0, nil
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
	op, count, reconstruct := "counting sort", s.fn.histogram, s.fn.reconstruct
	if unique {
		op, count, reconstruct = "occurrence sort", s.fn.occurs, s.fn.reconstructOnce
	}
	needs := append([]need{{&s.sc.hist, bins}, {&s.sc.pos, bins + 1}, {&s.sc.bad, 1}}, s.scanNeeds(bins, true)...)
	r := request{op: op, keys: keys.Len(), values: bins, written: max(bins+1, keys.Len())}
	if err := s.reserve(r, needs...); err != nil {
		return 0, err
	}
	hist, err := take(s.sc.hist, bins)
	if err != nil {
		return 0, err
	}
	pos, err := take(s.sc.pos, bins+1)
	if err != nil {
		return 0, err
	}
	if err := hist.FillOn(s.stream, 0); err != nil {
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
	_, err = s.locked(func() (int, error) {
		if err := s.checkBuffer("keys", keys); err != nil {
			return 0, err
		}
		if err := checkKernelLen("keys", keys); err != nil {
			return 0, err
		}
		lo, hi, ok, err = s.keyRange(keys)
		return 0, err
	})
	return lo, hi, ok, err
}

// keyRange is KeyRange on checked keys.
func (s *Sorter) keyRange(keys *runtime.Buffer[uint32]) (lo, hi uint32, ok bool, err error) {
	if keys.Len() == 0 {
		return 0, 0, false, nil
	}
	if err := s.reserve(request{op: "key range", keys: keys.Len(), written: 2}, need{&s.sc.minmax, 2}); err != nil {
		return 0, 0, false, err
	}
	mm, err := take(s.sc.minmax, 2)
	if err != nil {
		return 0, 0, false, err
	}
	if err := errors.Join(mm.View(0, 1).FillOn(s.stream, math.MaxUint32), mm.View(1, 1).FillOn(s.stream, 0)); err != nil {
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

// sortAuto finds the key range, then sorts on checked arguments; show
// writes keys as the caller gave them, for errors. With anyRange, keys
// spanning more than MaxBins values are sorted by the radix sort (see
// radixWide) instead of failing.
func (s *Sorter) sortAuto(out, keys *runtime.Buffer[uint32], unique bool, show keyFormat, anyRange bool) (int, error) {
	lo, hi, ok, err := s.keyRange(keys)
	if err != nil || !ok {
		return 0, err
	}
	if anyRange && !unique && !s.paper {
		return s.sortPicked(out, keys, lo, hi)
	}
	if anyRange && uint64(hi)-uint64(lo) >= MaxBins {
		return s.radixWide(out, keys, lo, hi, unique)
	}
	bins, err := checkSpan(lo, hi, show)
	if err != nil {
		return 0, err
	}
	return s.sort(out, keys, lo, bins, unique, s.paper)
}

// CountingSortAuto is CountingSort with the key range found first (one
// reduction over the keys). Keys spanning more than MaxBins values are an
// error wrapping ErrBadRange.
func (s *Sorter) CountingSortAuto(out, keys *runtime.Buffer[uint32]) error {
	_, err := s.auto(out, keys, false)
	return err
}

// OccurrenceSortAuto is OccurrenceSort with the key range found first.
func (s *Sorter) OccurrenceSortAuto(out, keys *runtime.Buffer[uint32]) (int, error) {
	return s.auto(out, keys, true)
}

// auto checks the arguments of a sort that finds its range and runs it.
func (s *Sorter) auto(out, keys *runtime.Buffer[uint32], unique bool) (int, error) {
	return s.locked(func() (int, error) {
		if err := s.checkSortBuffers(out, keys); err != nil {
			return 0, err
		}
		return s.sortAuto(out, keys, unique, unsignedKeys, false)
	})
}

// onSlices copies keys to the device, runs sort and copies back the first
// n results, freeing what it allocated whatever happens. The Sorter is
// locked.
func (s *Sorter) onSlices(op string, keys []uint32, sort func(out, in *runtime.Buffer[uint32]) (int, error)) (sorted []uint32, err error) {
	n := len(keys)
	if n == 0 {
		return []uint32{}, nil
	}
	r := request{op: op, keys: n, written: n}
	if err := s.checkSlice(r); err != nil {
		return nil, err
	}
	in, out, err := sliceBuffers(s, r, "keys", keys)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, in.Free(), out.Free()) }()
	k, err := sort(out, in)
	if err != nil {
		return nil, err
	}
	return out.View(0, k).ToSlice()
}

// checkSlice refuses a sort of a slice of r.keys keys that a kernel
// cannot take, or whose copies on the device cost too much.
func (s *Sorter) checkSlice(r request) error {
	if uint64(r.keys) > maxKernelLen {
		return fmt.Errorf("sorts: %v: more than the 2^32-1 keys a kernel takes: %w", r, ErrTooLarge)
	}
	return s.checkCost(r, 8*uint64(r.keys)) // the keys and the output
}

// sortSlice runs a sort of a slice with the Sorter locked.
func (s *Sorter) sortSlice(op string, keys []uint32, sort func(out, in *runtime.Buffer[uint32]) (int, error)) (sorted []uint32, err error) {
	_, err = s.locked(func() (int, error) {
		sorted, err = s.onSlices(op, keys, sort)
		return 0, err
	})
	return sorted, err
}

// Sort returns keys sorted: up to kernels.BlockSortMaxKeys keys in one
// launch, by a radix sort in one block (except with the option Paper);
// more by counting sort over the keys' own range, or by the radix sort
// (RadixSort) when they span more than MaxBins values. Every slice of at
// most MaxRadixKeys keys sorts.
func (s *Sorter) Sort(keys []uint32) ([]uint32, error) {
	return s.sortSlice("Sort", keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
		if s.blockSorts(in.Len()) {
			begin, end := varyingBits(keys)
			return s.blockSort(out, in, begin, end)
		}
		return s.sortAuto(out, in, false, unsignedKeys, true)
	})
}

// SortRange returns keys sorted, by counting sort over [lo, hi), or, for
// up to kernels.BlockSortMaxKeys keys, by the block sort of Sort once the
// host has checked that they lie in [lo, hi).
func (s *Sorter) SortRange(keys []uint32, lo, hi uint32) ([]uint32, error) {
	return s.slicesInRange("SortRange", keys, lo, hi, false)
}

// SortUnique returns the distinct keys sorted, by occurrence sort over the
// keys' own range, or by the radix sort and Unique's compaction when they
// span more than MaxBins values.
func (s *Sorter) SortUnique(keys []uint32) ([]uint32, error) {
	return s.sortSlice("SortUnique", keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
		return s.sortAuto(out, in, true, unsignedKeys, true)
	})
}

// SortUniqueRange returns the distinct keys sorted, by occurrence sort
// over [lo, hi).
func (s *Sorter) SortUniqueRange(keys []uint32, lo, hi uint32) ([]uint32, error) {
	return s.slicesInRange("SortUniqueRange", keys, lo, hi, true)
}

// slicesInRange checks [lo, hi) before it copies the keys, and sorts them.
func (s *Sorter) slicesInRange(op string, keys []uint32, lo, hi uint32, unique bool) (sorted []uint32, err error) {
	_, err = s.locked(func() (int, error) {
		bins, err := checkRange(lo, hi)
		if err != nil {
			return 0, err
		}
		if !unique && s.blockSorts(len(keys)) {
			if err := checkInRange(keys, lo, bins); err != nil {
				return 0, err
			}
			sorted, err = s.onSlices(op, keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
				begin, end := varyingBits(keys)
				return s.blockSort(out, in, begin, end)
			})
			return 0, err
		}
		sorted, err = s.onSlices(op, keys, func(out, in *runtime.Buffer[uint32]) (int, error) {
			return s.sort(out, in, lo, bins, unique, s.paper)
		})
		return 0, err
	})
	return sorted, err
}

// SortInt32 returns int32 keys sorted: they are offset by 2^31 into
// uint32 keys of the same order, sorted over their own range (by the
// radix sort when it spans more than MaxBins values, as Sort), and offset
// back. Errors name the int32 keys.
func (s *Sorter) SortInt32(keys []int32) ([]int32, error) {
	u := make([]uint32, len(keys))
	for i, k := range keys {
		u[i] = toOrdered(k)
	}
	sorted, err := s.sortSlice("SortInt32", u, func(out, in *runtime.Buffer[uint32]) (int, error) {
		return s.sortAuto(out, in, false, int32Keys, true)
	})
	if err != nil {
		return nil, err
	}
	r := make([]int32, len(sorted))
	for i, k := range sorted {
		r[i] = fromOrdered(k)
	}
	return r, nil
}
