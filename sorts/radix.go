package sorts

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// MaxRadixKeys is the most keys the radix sort takes: 2^31-1.
const MaxRadixKeys = math.MaxInt32

// RadixOption configures a call of RadixSort, SortPairs, Argsort,
// SortSlice or the unique sorts.
type RadixOption func(*radixConfig)

// radixConfig is what the radix options set.
type radixConfig struct {
	begin, end int
	bitsSet    bool
	order      kernels.Order
}

// Bits makes a radix sort look only at the bits [begin, end) of the keys'
// order-preserving form (see Key; for unsigned keys, the keys' own bits),
// as CUB's begin_bit and end_bit: keys that differ only outside them keep
// their order. 0 <= begin < end <= the key's bits; otherwise the call
// returns an error wrapping ErrBadRange.
func Bits(begin, end int) RadixOption {
	return func(c *radixConfig) { c.begin, c.end, c.bitsSet = begin, end, true }
}

// Descending makes a radix sort put the largest key first: the reverse of
// the order of Key (floats from +NaN down to -NaN), as CUB's
// SortKeysDescending. The sort stays stable: equal keys, with their values
// or positions, keep the order they had. With Bits, the keys are ordered
// by those bits, largest first.
func Descending() RadixOption { return func(c *radixConfig) { c.order = kernels.Descending } }

// radixOptions returns what the options ask for: the bits [begin, end)
// (every bit of K unless Bits says otherwise) and the order.
func radixOptions[K Key](opts []RadixOption) (radixConfig, error) {
	width := 8 * runtime.TypeOf[K]().Size()
	c := radixConfig{end: width}
	for i, o := range opts {
		if o == nil {
			return radixConfig{}, fmt.Errorf("sorts: %w: radix option %d is nil", ErrBadOption, i)
		}
		o(&c)
	}
	if c.begin < 0 || c.end <= c.begin || c.end > width {
		return radixConfig{}, fmt.Errorf("sorts: %w: bits [%d, %d) of %d-bit keys: want 0 <= begin < end <= %d", ErrBadRange, c.begin, c.end, width, width)
	}
	return c, nil
}

// RadixSort writes the keys, sorted, to out (of the same length; it may be
// keys itself, but not part of it). Keys of every type of Key sort, with
// no range to declare: least significant digit first, stable, by Onesweep
// (see the package's documentation). It enqueues its launches and reads
// nothing back: on a GPU it returns before the sort has finished, ordered
// before later work on the device's default stream. Options: Bits,
// Descending.
func RadixSort[K Key](s *Sorter, out, keys *runtime.Buffer[K], opts ...RadixOption) error {
	_, err := s.locked(func() (int, error) {
		c, err := radixOptions[K](opts)
		if err != nil {
			return 0, err
		}
		if err := radixCheckKeys(s, out, "out", keys); err != nil {
			return 0, err
		}
		return 0, radixRun[K, uint32](s, radixJob[K, uint32]{op: "radix sort", keys: keys, outKeys: out, begin: c.begin, end: c.end,
			order: c.order})
	})
	return err
}

// SortPairs writes the keys, sorted, to outKeys and the values, moved with
// their keys, to outValues: the sort is stable, so values of equal keys
// keep their order. Every buffer has the keys' length; outKeys may be keys
// itself and outValues values itself, and the buffers must otherwise be
// separate allocations. It reads nothing back, as RadixSort. Options:
// Bits, Descending.
func SortPairs[K Key, V Value](s *Sorter, outKeys *runtime.Buffer[K], outValues *runtime.Buffer[V], keys *runtime.Buffer[K],
	values *runtime.Buffer[V], opts ...RadixOption) error {
	_, err := s.locked(func() (int, error) {
		c, err := radixOptions[K](opts)
		if err != nil {
			return 0, err
		}
		if err := radixCheckKeys(s, outKeys, "outKeys", keys); err != nil {
			return 0, err
		}
		if err := errors.Join(checkBufferOn(s.dev, "outValues", outValues), checkBufferOn(s.dev, "values", values)); err != nil {
			return 0, err
		}
		n := keys.Len()
		for _, b := range []struct {
			arg string
			len int
		}{{"values", values.Len()}, {"outValues", outValues.Len()}} {
			if b.len != n {
				return 0, &BufferError{Arg: b.arg, Err: fmt.Errorf("%d elements for %d keys: want as many", b.len, n)}
			}
		}
		if err := errors.Join(checkSeparate("outValues", outValues, "values", values, true),
			checkSeparate("values", values, "keys", keys, false), checkSeparate("outValues", outValues, "keys", keys, false),
			checkSeparate("values", values, "outKeys", outKeys, false), checkSeparate("outValues", outValues, "outKeys", outKeys, false)); err != nil {
			return 0, err
		}
		job := radixJob[K, V]{op: "radix sort of pairs", keys: keys, outKeys: outKeys, values: values, outValues: outValues,
			mode: kernels.Pairs, begin: c.begin, end: c.end, order: c.order}
		return 0, radixRun(s, job)
	})
	return err
}

// Argsort writes to out (of the keys' length) the positions of the keys
// in their stable sort: keys[out[0]] <= keys[out[1]] <= ... (>= with
// Descending), equal keys in the order of their positions. out and keys
// must be separate allocations. It reads nothing back, as RadixSort.
// Options: Bits, Descending.
func Argsort[K Key](s *Sorter, out *runtime.Buffer[uint32], keys *runtime.Buffer[K], opts ...RadixOption) error {
	_, err := s.locked(func() (int, error) {
		c, err := radixOptions[K](opts)
		if err != nil {
			return 0, err
		}
		if err := errors.Join(checkBufferOn(s.dev, "out", out), checkBufferOn(s.dev, "keys", keys)); err != nil {
			return 0, err
		}
		if err := radixCheckLen(keys); err != nil {
			return 0, err
		}
		if out.Len() != keys.Len() {
			return 0, &BufferError{Arg: "out", Err: fmt.Errorf("%d positions for %d keys: want as many", out.Len(), keys.Len())}
		}
		if err := checkSeparate("out", out, "keys", keys, false); err != nil {
			return 0, err
		}
		sortedKeys, err := radixScratchKeys[K](s, keys.Len())
		if err != nil {
			return 0, err
		}
		job := radixJob[K, uint32]{op: "argsort", keys: keys, outKeys: sortedKeys, outValues: out, mode: kernels.Positions,
			begin: c.begin, end: c.end, order: c.order, scratchKeys: true}
		return 0, radixRun(s, job)
	})
	return err
}

// radixCheckKeys checks the keys and output buffers of a radix sort: usable,
// at most MaxRadixKeys keys, out as long, and out either keys or a
// separate allocation.
func radixCheckKeys[K Key](s *Sorter, out *runtime.Buffer[K], outArg string, keys *runtime.Buffer[K]) error {
	if err := errors.Join(checkBufferOn(s.dev, outArg, out), checkBufferOn(s.dev, "keys", keys)); err != nil {
		return err
	}
	if err := radixCheckLen(keys); err != nil {
		return err
	}
	if out.Len() != keys.Len() {
		return &BufferError{Arg: outArg, Err: fmt.Errorf("%d elements for %d keys: want as many", out.Len(), keys.Len())}
	}
	return checkSeparate(outArg, out, "keys", keys, true)
}

// radixCheckLen refuses more keys than the radix sort takes.
func radixCheckLen[K Key](keys *runtime.Buffer[K]) error {
	if keys.Len() > MaxRadixKeys {
		return &BufferError{Arg: "keys", Err: fmt.Errorf("%d keys, more than the radix sort's %d (2^31-1): %w", keys.Len(), MaxRadixKeys, ErrTooLarge)}
	}
	return nil
}

// radixScratchKeys returns scratch for n sorted keys that an argsort does
// not return, kept with the Sorter's other scratch.
func radixScratchKeys[K Key](s *Sorter, n int) (*runtime.Buffer[K], error) {
	if err := s.reserveTyped(request{op: "argsort", keys: n, written: n}, []typedNeed{needOf[K](radixPosition, n)}); err != nil {
		return nil, err
	}
	return takeTyped[K](&s.sc, radixPosition, n)
}

// radixJob is a radix sort on checked arguments: keys to outKeys, and
// values to outValues for Pairs (for Positions, the keys' positions to
// outValues), by the bits [begin, end), in order. scratchKeys says that
// outKeys is the Sorter's scratch (radixScratchKeys), which a reservation
// that frees the scratch to try again must take anew.
type radixJob[K Key, V Value] struct {
	op                string
	keys, outKeys     *runtime.Buffer[K]
	values, outValues *runtime.Buffer[V]
	mode              kernels.RadixValues
	begin, end        int
	order             kernels.Order
	scratchKeys       bool
}

// shapeFor returns the shape of the Sorter's radix sort of n keys of
// keyBytes bytes with values of valueBytes bytes (0 for none).
func (s *Sorter) shapeFor(keyBytes, valueBytes, n int) kernels.RadixShape {
	if s.radixShape != (kernels.RadixShape{}) {
		return s.radixShape
	}
	return kernels.RadixShapeFor(keyBytes, valueBytes, n)
}

// radixKernelKey tells the radix sort's kernels apart: what the kernel
// does, its key and value types, what its passes carry, its shape and the
// order it sorts in.
type radixKernelKey struct {
	kind       kernelKind
	key, value ir.Type
	mode       kernels.RadixValues
	shape      kernels.RadixShape
	order      kernels.Order
}

// kernelKind is what a kernel of radixKernelKey does: a number, so that
// finding a loaded kernel, once a sort, hashes no text.
type kernelKind uint8

// The kernels of radixKernelKey.
const (
	countKernel        kernelKind = iota // kernels.BlockCountKernel
	blockKernel                          // kernels.RadixBlockKernel
	rankKernel                           // kernels.RankSortKernel
	histogramKernel                      // kernels.RadixHistogramKernel
	passKernel                           // kernels.RadixPassKernel
	uniqueCountsKernel                   // kernels.UniqueCountsKernel
	uniqueKernel                         // kernels.UniqueKernel
)

// radixKernel returns the kernel build makes, loading it on first use.
func (s *Sorter) radixKernel(key radixKernelKey, build func() *dsl.Kernel) (runtime.Function, error) {
	if f, ok := s.radix[key]; ok {
		return f, nil
	}
	k, err := built(key, build)
	if err != nil {
		return nil, err
	}
	f, err := s.dev.Load(k)
	if err != nil {
		return nil, fmt.Errorf("sorts: loading %s: %w", k.Name, err)
	}
	if s.radix == nil {
		s.radix = map[radixKernelKey]runtime.Function{}
	}
	s.radix[key] = f
	return f, nil
}

// lookBackState is where the radix sort's look-back status words stand
// between sorts: the buffer last zeroed and the epoch its next pass takes.
// A pass publishes its words with flags of its own epoch, above those of
// every earlier one, so that a sort needs no zeroing of the words while
// the epochs last.
type lookBackState struct {
	status *runtime.Mem // nil: zero the words first
	epoch  uint32
}

// radixEpochs returns the look-back epoch of the first of passes passes
// on status, zeroing it first unless it holds the words of earlier sorts
// with epochs to spare. Until the passes are enqueued the words' state is
// unknown: a launch that fails may have run in part.
func (s *Sorter) radixEpochs(status *runtime.Buffer[uint64], passes int) (uint32, error) {
	st := s.radixLookBack
	s.radixLookBack = lookBackState{}
	if st.status == status.Mem() && uint64(st.epoch)+uint64(passes) <= arrays.MaxEpoch+1 {
		return st.epoch, nil
	}
	return 0, status.FillOn(s.stream, 0)
}

// radixRun runs a radix sort job: the histogram of every pass and the
// passes' plan in one launch, then a launch per pass, which
// skips the passes of one digit and ping-pongs between the output and
// scratch so that the last pass writes the output (or a copy to it, when
// the output is the input and the passes that rank are odd in number).
func radixRun[K Key, V Value](s *Sorter, j radixJob[K, V]) error {
	n := j.keys.Len()
	if n == 0 {
		return nil
	}
	valueBytes := 0
	switch j.mode {
	case kernels.Pairs:
		valueBytes = runtime.TypeOf[V]().Size()
	case kernels.Positions:
		valueBytes = 4
	}
	if warps, ok := rankSortFor(s, j, n); ok {
		return rankSortRun(s, j, warps)
	}
	if shape, ok := s.blockShapeFor(runtime.TypeOf[K]().Size(), valueBytes, n, j.end-j.begin); ok {
		return radixBlockRun(s, j, shape)
	}
	shape := s.shapeFor(runtime.TypeOf[K]().Size(), valueBytes, n)
	passes := shape.Passes(j.end - j.begin)
	digits, tiles := shape.Digits(), ceilDiv(n, shape.Tile())
	statusLen := uint64(tiles) * uint64(digits)
	if statusLen > math.MaxInt32 {
		return fmt.Errorf("sorts: %s of %d keys: %d look-back words: %w", j.op, n, statusLen, ErrTooLarge)
	}
	typed := []typedNeed{needOf[uint64](radixStatus, int(statusLen)), needOf[K](radixKeys, n)}
	if j.mode != kernels.KeysOnly {
		typed = append(typed, needOf[V](radixValues, n))
	}
	if j.scratchKeys {
		typed = append(typed, needOf[K](radixPosition, n))
	}
	// The digit counts, a tile counter per pass, the passes' plans and the
	// histogram's count of finished blocks, in one half of radixCounts.
	countsLen := passes*digits + passes + passes + 1 + 1
	lastCounts := s.radixCountsState
	s.radixCountsState = countsState{}
	halfLen := max(countsLen, lastCounts.halfLen)
	needs := []need{{&s.sc.radixCounts, 2 * halfLen}}
	if err := s.reserveTyped(request{op: j.op, keys: n, written: n}, typed, needs...); err != nil {
		return err
	}
	if j.scratchKeys {
		outKeys, err := takeTyped[K](&s.sc, radixPosition, n)
		if err != nil {
			return err
		}
		j.outKeys = outKeys
	}
	counts, clear, half, err := s.takeCounts(s.sc.radixCounts, lastCounts, halfLen, countsLen)
	if err != nil {
		return err
	}
	hist, tileCounters := counts.View(0, passes*digits), counts.View(passes*digits, passes)
	plans, done := counts.View(passes*digits+passes, passes+1), counts.View(passes*digits+2*passes+1, 1)
	status, err := takeTyped[uint64](&s.sc, radixStatus, int(statusLen))
	if err != nil {
		return err
	}
	altKeys, err := takeTyped[K](&s.sc, radixKeys, n)
	if err != nil {
		return err
	}
	var altValues *runtime.Buffer[V]
	if j.mode != kernels.KeysOnly {
		if altValues, err = takeTyped[V](&s.sc, radixValues, n); err != nil {
			return err
		}
	}
	epoch, err := s.radixEpochs(status, passes)
	if err != nil {
		return err
	}
	// The last block of the histogram finds on the device which passes to
	// skip and where each reads and writes, so that the last leaves the
	// keys in the output; an in-place sort with an odd number of passes
	// may end in scratch, and then a last launch (pass = passes) copies
	// them to the output.
	keysInPlace := j.keys.Mem() == j.outKeys.Mem()
	valuesInPlace := j.values != nil && j.values.Mem() == j.outValues.Mem()
	inPlace := keysInPlace || valuesInPlace
	inPlaceWord := uint32(0)
	switch {
	case keysInPlace && (j.values == nil || valuesInPlace):
		inPlaceWord = kernels.RadixAllInPlace
	case inPlace:
		inPlaceWord = kernels.RadixSomeInPlace
	}
	histogram, err := s.radixKernel(radixKernelKey{kind: histogramKernel, key: runtime.TypeOf[K](), mode: j.mode, shape: shape, order: j.order},
		func() *dsl.Kernel { return kernels.RadixHistogramKernel[K](shape, j.mode, j.order) })
	if err != nil {
		return err
	}
	parts := min(ceilDiv(n, shape.Tile()), s.parts(histogram), kernels.RadixHistogramParts)
	if err := s.launch(histogram, j.keys, hist, plans, done, clear, uint32(j.begin), uint32(j.end), uint32(parts), uint32(passes),
		inPlaceWord); err != nil {
		return err
	}
	key := radixKernelKey{kind: passKernel, key: runtime.TypeOf[K](), value: runtime.TypeOf[V](), mode: j.mode, shape: shape, order: j.order}
	pass, err := s.radixKernel(key, func() *dsl.Kernel { return kernels.RadixPassKernel[K, V](shape, j.mode, j.order) })
	if err != nil {
		return err
	}
	launches := passes
	if inPlace && passes%2 == 1 {
		launches++
	}
	for p := range launches {
		args := []any{j.keys, j.outKeys, altKeys}
		switch j.mode {
		case kernels.Pairs:
			args = append(args, j.values, j.outValues, altValues)
		case kernels.Positions:
			args = append(args, j.outValues, altValues)
		}
		args = append(args, hist, plans, status, tileCounters, uint32(p), epoch+uint32(min(p, passes-1)), uint32(j.begin),
			uint32(j.end))
		if err := s.launch(pass, args...); err != nil {
			return err
		}
	}
	// Every pass is enqueued: the next sort's passes take the next epochs,
	// and its counts the half the histogram cleared.
	s.radixLookBack = lookBackState{status: status.Mem(), epoch: epoch + uint32(passes)}
	s.radixCountsState = countsState{counts: counts.Mem(), halfLen: halfLen, next: 1 - half}
	return nil
}

// countsState is where the radix sort's counts stand between sorts. They
// take one of two halves of the scratch, of halfLen words each: a sort
// counts in half next, zeroed, and its histogram zeroes the other half,
// which the sort before it used and no launch reads any more (the
// launches run in order), so that the sort after needs no memset.
type countsState struct {
	counts  *runtime.Mem // nil: zero both halves first
	halfLen int
	next    int
}

// takeCounts returns the first countsLen words of the zeroed half of
// scratch (of 2*halfLen words, reserved) that a sort counts in, the other
// half for its histogram to zero, and the index of the first: the half st
// says is zeroed, or after a memset of both, the first.
func (s *Sorter) takeCounts(scratch *runtime.Buffer[uint32], st countsState, halfLen, countsLen int) (counts, clear *runtime.Buffer[uint32],
	half int, err error) {
	both, err := take(scratch, 2*halfLen)
	if err != nil {
		return nil, nil, 0, err
	}
	if st.counts != both.Mem() || st.halfLen != halfLen {
		if err := both.FillOn(s.stream, 0); err != nil {
			return nil, nil, 0, err
		}
		st.next = 0
	}
	return both.View(st.next*halfLen, countsLen), both.View((1-st.next)*halfLen, halfLen), st.next, nil
}

// varyingBits returns the bits [begin, end) of the keys' order-preserving
// form in which some keys differ (begin = end = 0 when none do): the bits
// a sort of them must look at.
func varyingBits[K Key](keys []K) (begin, end int) {
	if len(keys) == 0 {
		return 0, 0
	}
	first, differ := orderedBits(keys[0]), uint64(0)
	for _, k := range keys[1:] {
		differ |= orderedBits(k) ^ first
	}
	if differ == 0 {
		return 0, 0
	}
	return bits.TrailingZeros64(differ), 64 - bits.LeadingZeros64(differ)
}

// SortSlice returns the keys sorted by the radix sort (see RadixSort),
// looking only at the bits in which the keys differ: a pass per digit of
// them, none when every key is the same. Options: Bits (the bits looked at
// are then those of both), Descending.
func SortSlice[K Key](s *Sorter, keys []K, opts ...RadixOption) (sorted []K, err error) {
	_, err = s.locked(func() (int, error) {
		c, err := radixOptions[K](opts)
		if err != nil {
			return 0, err
		}
		sorted, err = radixSlice(s, keys, c)
		return 0, err
	})
	return sorted, err
}

// sliceBits returns the bits [begin, end) a sort of keys by the bits c
// asks for looks at: those of c in which some keys differ, begin = end = 0
// when there are none.
func sliceBits[K Key](keys []K, c radixConfig) (begin, end int) {
	begin, end = varyingBits(keys)
	if c.bitsSet {
		begin, end = max(begin, c.begin), min(end, c.end)
	}
	if end <= begin {
		return 0, 0
	}
	return begin, end
}

// radixSlice is SortSlice with the Sorter locked.
func radixSlice[K Key](s *Sorter, keys []K, c radixConfig) ([]K, error) {
	if err := radixCheckSliceLen(len(keys)); err != nil {
		return nil, err
	}
	begin, end := sliceBits(keys, c)
	if end == 0 {
		return append([]K{}, keys...), nil
	}
	return radixOnSlice(s, keys, func(out, in *runtime.Buffer[K]) (int, error) {
		return len(keys), radixRun(s, radixJob[K, uint32]{op: "radix sort", keys: in, outKeys: out, begin: begin, end: end,
			order: c.order})
	})
}

// radixCheckSliceLen refuses a slice of more keys than the radix sort
// takes.
func radixCheckSliceLen(n int) error {
	if n > MaxRadixKeys {
		return fmt.Errorf("sorts: radix sort of %d keys, more than the %d (2^31-1) it takes: %w", n, MaxRadixKeys, ErrTooLarge)
	}
	return nil
}

// radixOnSlice copies keys to the device, runs sort on them (in) and an
// output as long (out), and returns the first elements of out, as many as
// sort reports; both buffers are freed.
func radixOnSlice[K Key](s *Sorter, keys []K, sort func(out, in *runtime.Buffer[K]) (int, error)) (result []K, err error) {
	n := len(keys)
	r := request{op: "radix sort", keys: n, written: n}
	if err := s.checkCost(r, 2*uint64(n)*uint64(runtime.TypeOf[K]().Size())); err != nil {
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

// sliceBuffers copies elems (the keys or values that what names) to the
// device and allocates an output as long, for the sort r. The up-front
// check counts the Sorter's scratch as free: when the device is short of
// memory while the Sorter holds scratch, it frees the scratch and tries
// once more. A device still short gives an error wrapping ErrTooLarge.
func sliceBuffers[T runtime.Scalar](s *Sorter, r request, what string, elems []T) (in, out *runtime.Buffer[T], err error) {
	if err := withMemory(s, r, func() (err error) {
		in, out, err = copiesOf(s.dev, what, elems)
		return err
	}); err != nil {
		return nil, nil, err
	}
	return in, out, nil
}

// withMemory runs alloc for the sort r, and once more after freeing the
// Sorter's scratch when the device is short of memory while the Sorter
// holds scratch. A device still short gives an error wrapping ErrTooLarge.
func withMemory(s *Sorter, r request, alloc func() error) error {
	err := alloc()
	if errors.Is(err, runtime.ErrOutOfMemory) && s.sc.bytes() > 0 {
		if err := s.sc.release(); err != nil {
			return fmt.Errorf("sorts: %v: freeing the scratch on %s: %w", r, s.dev.Name(), err)
		}
		err = alloc()
	}
	switch {
	case errors.Is(err, runtime.ErrOutOfMemory):
		return fmt.Errorf("sorts: %v: %w: %w", r, ErrTooLarge, err)
	case err != nil:
		return fmt.Errorf("sorts: %v: %w", r, err)
	}
	return nil
}

// copiesOf copies elems (the keys or values that what names) to dev and
// allocates an output as long, freeing the copy when the output cannot be
// had.
func copiesOf[T runtime.Scalar](dev runtime.Device, what string, elems []T) (in, out *runtime.Buffer[T], err error) {
	in, err = runtime.FromSlice(dev, elems)
	if err != nil {
		return nil, nil, fmt.Errorf("copying the %s to %s: %w", what, dev.Name(), err)
	}
	out, err = runtime.Alloc[T](dev, len(elems))
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("allocating the output of the %s on %s: %w", what, dev.Name(), err), in.Free())
	}
	return in, out, nil
}
