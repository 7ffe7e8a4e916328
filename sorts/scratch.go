package sorts

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
)

// scratch is a Sorter's temporary device memory, kept between calls and
// grown as a call needs: a field per use.
type scratch struct {
	hist, pos, starts, bits, bad, minmax, warpRanges *runtime.Buffer[uint32]
	// radixCounts holds, in each of two halves, the radix sort's digit
	// counts, then its tile counters and its passes' plans (see
	// countsState); typed holds its buffers of other element types.
	radixCounts *runtime.Buffer[uint32]
	typed       map[typedSlot]anyBuffer
	// The papers' sorts: 0-compressed H-P's counts and values of the
	// values that occur; the notes' radix sort's locally sorted tiles and
	// their digits' offsets.
	counts, values, tiles, tileOffsets *runtime.Buffer[uint32]
	// totals and sums hold a scan's totals per tile (or chunk) and their
	// scan, one per level of its recursion.
	totals, sums []*runtime.Buffer[uint32]
}

// all returns the fields of every scratch buffer.
func (sc *scratch) all() []**runtime.Buffer[uint32] {
	bufs := []**runtime.Buffer[uint32]{&sc.hist, &sc.pos, &sc.starts, &sc.bits, &sc.bad, &sc.minmax, &sc.warpRanges,
		&sc.radixCounts, &sc.counts, &sc.values, &sc.tiles, &sc.tileOffsets}
	for i := range sc.totals {
		bufs = append(bufs, &sc.totals[i])
	}
	for i := range sc.sums {
		bufs = append(bufs, &sc.sums[i])
	}
	return bufs
}

// bytes returns the device memory the scratch holds.
func (sc *scratch) bytes() uint64 {
	var n uint64
	for _, b := range sc.all() {
		if *b != nil {
			n += 4 * uint64((*b).Len())
		}
	}
	for _, b := range sc.typed {
		n += bufferBytes(b)
	}
	return n
}

// release frees every scratch buffer.
func (sc *scratch) release() error {
	var errs []error
	for _, b := range sc.all() {
		if *b != nil {
			errs = append(errs, (*b).Free())
			*b = nil // even if Free failed, it is not used again
		}
	}
	for slot, b := range sc.typed {
		errs = append(errs, b.Free())
		delete(sc.typed, slot) // even if Free failed, it is not used again
	}
	return errors.Join(errs...)
}

// level returns the field of a scan level in levels (totals or sums),
// adding it when it is new.
func level(levels *[]*runtime.Buffer[uint32], i int) **runtime.Buffer[uint32] {
	for len(*levels) <= i {
		*levels = append(*levels, nil)
	}
	return &(*levels)[i]
}

// need is a scratch buffer a call uses and its length.
type need struct {
	buf **runtime.Buffer[uint32]
	n   int
}

// bytes returns the device memory a need allocates (at least one element).
func (nd need) bytes() uint64 { return 4 * uint64(max(nd.n, 1)) }

// short reports whether the buffer must grow for the need.
func (nd need) short() bool { return *nd.buf == nil || (*nd.buf).Len() < nd.n }

// take returns the first n elements of a scratch buffer that reserve grew.
func take(b *runtime.Buffer[uint32], n int) (*runtime.Buffer[uint32], error) {
	if b == nil || b.Len() < n {
		return nil, fmt.Errorf("sorts: internal error: %d scratch elements were not reserved", n)
	}
	return b.View(0, n), nil
}

// request describes a call, for the up-front checks and their messages.
type request struct {
	op           string
	keys, values int // values: the range's (0 when there is none)
	// written is the most elements one of the call's launches writes:
	// the CPU evaluator keeps a record of each (see evaluatorBytes).
	written int
}

func (r request) String() string {
	if r.values == 0 {
		return fmt.Sprintf("%s of %d elements", r.op, r.keys)
	}
	return fmt.Sprintf("%s of %d keys over %d values", r.op, r.keys, r.values)
}

// reserve checks the cost of r up front (checkCost) and grows the scratch
// buffers it needs, before anything is launched. When an allocation
// fails, the Sorter frees its scratch and tries once more; when that
// fails too, it returns the error with all its scratch freed.
func (s *Sorter) reserve(r request, needs ...need) error {
	return s.reserveTyped(r, nil, needs...)
}

// reserveTyped is reserve with needs of scratch of other element types
// than uint32 too.
func (s *Sorter) reserveTyped(r request, typed []typedNeed, needs ...need) error {
	var grow uint64
	for _, nd := range needs {
		if nd.short() {
			grow += nd.bytes()
		}
	}
	for _, nd := range typed {
		if s.sc.short(nd) {
			grow += nd.bytes()
		}
	}
	if err := s.checkCost(r, grow); err != nil {
		return err
	}
	held := s.sc.bytes()
	err := errors.Join(s.grow(needs), s.sc.growTyped(s.dev, typed))
	if err != nil && held > 0 {
		err = errors.Join(s.sc.release(), s.grow(needs), s.sc.growTyped(s.dev, typed))
	}
	if err != nil {
		return errors.Join(fmt.Errorf("sorts: %v: allocating %s of scratch on %s: %w", r, byteSize(grow), s.dev.Name(), err), s.sc.release())
	}
	return nil
}

// grow allocates the needs whose buffers are too short, freeing the
// buffers they replace first.
func (s *Sorter) grow(needs []need) error {
	for _, nd := range needs {
		if !nd.short() {
			continue
		}
		if old := *nd.buf; old != nil {
			*nd.buf = nil // even if Free fails, it is not used again
			if err := old.Free(); err != nil {
				return err
			}
		}
		b, err := runtime.Alloc[uint32](s.dev, max(nd.n, 1))
		if err != nil {
			return err
		}
		*nd.buf = b
	}
	return nil
}

// memInfo is a device that says how much memory it may still take: a GPU
// its free memory, the CPU evaluator what its memory limit leaves.
type memInfo interface {
	MemInfo() (free, total uint64, err error)
}

// checkCost refuses, with an error wrapping ErrTooLarge, a call that
// needs grow bytes of new device memory, or more than the device has free
// (counting the scratch the Sorter could free). On the CPU evaluator a
// launch also holds state for every element it writes
// (runtime.CPULaunchBytesPerElement), counted for r's largest launch.
func (s *Sorter) checkCost(r request, grow uint64) error {
	g, ok := s.dev.(memInfo)
	if !ok {
		return nil
	}
	need := grow
	if _, gpu := s.dev.(*runtime.GPU); !gpu {
		need += uint64(r.written) * runtime.CPULaunchBytesPerElement
	}
	if need == 0 {
		return nil
	}
	free, _, err := g.MemInfo()
	if err != nil {
		return fmt.Errorf("sorts: %v: %w", r, err)
	}
	if avail := free + s.sc.bytes(); need > avail {
		return fmt.Errorf("sorts: %v needs %s of memory, and %s has %s free: %w", r, byteSize(need), s.dev.Name(), byteSize(avail), ErrTooLarge)
	}
	return nil
}

// byteSize formats a number of bytes for messages.
type byteSize uint64

func (b byteSize) String() string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", uint64(b))
	}
	v, suffix := float64(b), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
