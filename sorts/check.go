package sorts

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/obsidian-go/obsidian/runtime"
)

// The errors a Sorter returns, wrapped with what was wrong (the values, the
// argument): test for them with errors.Is. A bad buffer argument is a
// *BufferError.
var (
	// ErrKeyOutOfRange: a key lies outside the range a sort or histogram
	// was given. Nothing is written outside any buffer.
	ErrKeyOutOfRange = errors.New("key outside the declared range")
	// ErrBadRange: a key range is empty or inverted, wider than MaxBins,
	// or (for a histogram) runs past 2^32-1; or the keys of a sort that
	// finds their range span more than MaxBins values.
	ErrBadRange = errors.New("bad key range")
	// ErrTooLarge: a call asks for more than the device can give: more
	// keys than a kernel takes (2^32-1), more memory than a GPU has free,
	// or more than the CPU evaluator's limit (runtime.CPUMemoryLimit). It is
	// returned before anything is allocated or launched, except when a
	// launch on the CPU evaluator finds no room for its state.
	ErrTooLarge = errors.New("request too large")
	// ErrNoDevice: the Sorter was not made by New (a nil or zero Sorter),
	// or New was given a nil device.
	ErrNoDevice = errors.New("no device")
	// ErrClosed: the Sorter has been closed.
	ErrClosed = errors.New("the Sorter is closed")
	// ErrBadOption: an option is nil, or one the call does not take
	// (Bits for the unique sorts).
	ErrBadOption = errors.New("bad option")
)

// BufferError reports a buffer argument a Sorter cannot use: nil, a zero
// Buffer, freed, an out-of-range view (Err is then the runtime's error for
// it), on another device than the Sorter's, of the wrong length, or
// sharing memory with another argument where that is not allowed; and a
// slice of values of another length than its keys (SortPairsSlice).
type BufferError struct {
	Arg string // the parameter's name, such as "keys", "out" or "values"
	Err error  // what is wrong with it
}

func (e *BufferError) Error() string {
	if e.Err == nil {
		return "sorts: " + e.Arg + ": unusable buffer"
	}
	return "sorts: " + e.Arg + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *BufferError) Unwrap() error { return e.Err }

// maxKernelLen is the longest array a kernel takes: lengths are uint32.
const maxKernelLen = math.MaxUint32

// checkBuffer returns a *BufferError when b cannot be used as the argument
// arg on the Sorter's device.
func (s *Sorter) checkBuffer(arg string, b *runtime.Buffer[uint32]) error {
	return checkBufferOn(s.dev, arg, b)
}

// checkBufferOn returns a *BufferError when b, of any element type, cannot
// be used as the argument arg on dev.
func checkBufferOn[T runtime.Scalar](dev runtime.Device, arg string, b *runtime.Buffer[T]) error {
	var err error
	switch {
	case b == nil:
		err = errors.New("nil buffer")
	case b.Mem() == nil:
		err = errors.New("a zero Buffer: make buffers with runtime.Alloc or runtime.FromSlice")
	case b.Device() != dev:
		err = fmt.Errorf("the buffer is on %s, the Sorter on %s", b.Device().Name(), dev.Name())
	default:
		err = b.Err()
	}
	if err != nil {
		return &BufferError{Arg: arg, Err: err}
	}
	return nil
}

// checkKernelLen returns a *BufferError wrapping ErrTooLarge when b is
// longer than a kernel takes.
func checkKernelLen[T runtime.Scalar](arg string, b *runtime.Buffer[T]) error {
	if uint64(b.Len()) > maxKernelLen {
		return &BufferError{Arg: arg, Err: fmt.Errorf("%d elements, more than the 2^32-1 a kernel takes: %w", b.Len(), ErrTooLarge)}
	}
	return nil
}

// checkSortBuffers checks a sort's out and keys: usable, at most 2^32-1
// keys, out as long as keys. out may share memory with keys (every key is
// read before out is written).
func (s *Sorter) checkSortBuffers(out, keys *runtime.Buffer[uint32]) error {
	if err := errors.Join(s.checkBuffer("out", out), s.checkBuffer("keys", keys)); err != nil {
		return err
	}
	if err := checkKernelLen("keys", keys); err != nil {
		return err
	}
	if out.Len() != keys.Len() {
		return &BufferError{Arg: "out", Err: fmt.Errorf("%d elements for %d keys: want as many", out.Len(), keys.Len())}
	}
	return nil
}

// checkSeparate returns a *BufferError when a and b share an allocation
// and are not the same elements. The runtime does not say where a view
// lies in its allocation, so two views of one allocation are taken to
// overlap unless both are the whole of it.
func checkSeparate[A, B runtime.Scalar](argA string, a *runtime.Buffer[A], argB string, b *runtime.Buffer[B], sameAllowed bool) error {
	if a.Mem() != b.Mem() {
		return nil
	}
	same := any(a) == any(b) || a.Len() == a.Mem().Len() && b.Len() == b.Mem().Len()
	if same && sameAllowed {
		return nil
	}
	fix := "give buffers of separate allocations"
	if sameAllowed {
		fix = "give the same buffer for both, or buffers of separate allocations"
	}
	return &BufferError{Arg: argA, Err: fmt.Errorf("shares memory with %s: %s", argB, fix)}
}

// checkRange validates a half-open key range and returns its number of
// values.
func checkRange(lo, hi uint32) (int, error) {
	if hi <= lo {
		return 0, fmt.Errorf("sorts: %w [%d, %d): empty", ErrBadRange, lo, hi)
	}
	if n := uint64(hi) - uint64(lo); n > MaxBins {
		return 0, fmt.Errorf("sorts: %w [%d, %d): %d values, more than MaxBins (%d)", ErrBadRange, lo, hi, n, MaxBins)
	}
	return int(hi - lo), nil
}

// checkBins validates a histogram's bins: the values [lo, lo+bins) must
// all be uint32 keys.
func checkBins(lo uint32, bins int) error {
	if end := uint64(lo) + uint64(bins); end > 1<<32 {
		return fmt.Errorf("sorts: %w [%d, %d+%d): %d bins from %d run past the largest key 2^32-1", ErrBadRange, lo, lo, bins, bins, lo)
	}
	return nil
}

// keyFormat writes a key as the caller gave it (a sort of int32 keys
// offsets them into uint32 ones), for error messages.
type keyFormat func(key uint32) string

// unsignedKeys formats uint32 keys.
func unsignedKeys(key uint32) string { return strconv.FormatUint(uint64(key), 10) }

// int32Keys formats the int32 keys that SortInt32 offsets by 2^31.
func int32Keys(key uint32) string { return strconv.FormatInt(int64(fromOrdered(key)), 10) }

// toOrdered offsets an int32 key by 2^31 into a uint32 key of the same
// order; fromOrdered undoes it.
func toOrdered(k int32) uint32   { return uint32(k) ^ 1<<31 }
func fromOrdered(k uint32) int32 { return int32(k ^ 1<<31) }

// checkSpan validates the range [lo, hi] the keys of a sort were found to
// span and returns its number of values.
func checkSpan(lo, hi uint32, show keyFormat) (int, error) {
	values := uint64(hi) - uint64(lo) + 1
	if values > MaxBins {
		return 0, fmt.Errorf("sorts: %w: the keys span [%s, %s], %d values, more than MaxBins (%d)", ErrBadRange, show(lo), show(hi), values, MaxBins)
	}
	return int(values), nil
}
