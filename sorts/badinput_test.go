package sorts_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// badFixture is what the rows of the bad-input catalogue call: a fast and
// a paper Sorter on one CPU device, and buffers made for each row.
type badFixture struct {
	t            *testing.T
	dev, other   runtime.Device
	fast, paper  *sorts.Sorter
	allocs       []*runtime.Buffer[uint32]
	closedSorter *sorts.Sorter
}

// buf returns a buffer on the fixture's device holding keys.
func (f *badFixture) buf(keys ...uint32) *runtime.Buffer[uint32] {
	return f.bufOn(f.dev, keys...)
}

// bufOn returns a buffer on dev holding keys, freed when the test ends.
func (f *badFixture) bufOn(dev runtime.Device, keys ...uint32) *runtime.Buffer[uint32] {
	b, err := runtime.FromSlice(dev, keys)
	if err != nil {
		f.t.Fatal(err)
	}
	f.allocs = append(f.allocs, b)
	return b
}

// zeros returns a buffer of n zeros.
func (f *badFixture) zeros(n int) *runtime.Buffer[uint32] { return f.buf(make([]uint32, n)...) }

// freed returns a buffer that has been freed.
func (f *badFixture) freed(n int) *runtime.Buffer[uint32] {
	b, err := runtime.Alloc[uint32](f.dev, n)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		f.t.Fatal(err)
	}
	return b
}

// pastEnd returns a view that runs past the end of a buffer of 8 keys.
func (f *badFixture) pastEnd() *runtime.Buffer[uint32] {
	return f.buf(1, 2, 3, 4, 5, 6, 7, 8).View(5, 10)
}

// badInput is a row of the catalogue: a call with a bad input and the
// error it must return.
type badInput struct {
	name string
	call func(f *badFixture) error
	is   error  // errors.Is must find it (nil: not checked)
	arg  string // when set, a *sorts.BufferError naming this argument
	msg  string // a substring of the message
}

// errOf drops the result of a call that returns one.
func errOf[T any](_ T, err error) error { return err }

// errOf3 drops the results of KeyRange.
func errOf3(_, _ uint32, _ bool, err error) error { return err }

var badInputs = []badInput{
	// Sorters that cannot be used.
	{"New with a nil device", func(f *badFixture) error { return errOf(sorts.New(nil)) }, sorts.ErrNoDevice, "", "nil device"},
	{"New with a nil *runtime.GPU", func(f *badFixture) error {
		var g *runtime.GPU
		return errOf(sorts.New(g))
	}, sorts.ErrNoDevice, "", "nil device"},
	{"New with a nil option", func(f *badFixture) error { return errOf(sorts.New(f.dev, sorts.Paper(), nil)) }, sorts.ErrBadOption, "", "option 1 is nil"},
	{"New on another device's stream", func(f *badFixture) error {
		st, err := f.other.NewStream()
		if err != nil {
			return fmt.Errorf("making the stream: %w", err) // not the error the row wants
		}
		return errOf(sorts.New(f.dev, sorts.OnStream(st)))
	}, nil, "", "not one of its streams"},
	{"New on a closed stream", func(f *badFixture) error {
		st, err := f.dev.NewStream()
		if err == nil {
			err = st.Close()
		}
		if err != nil {
			return fmt.Errorf("making the stream: %w", err)
		}
		return errOf(sorts.New(f.dev, sorts.OnStream(st)))
	}, nil, "", "has been closed"},
	{"Sorter on a stream closed after New", func(f *badFixture) error {
		st, err := f.dev.NewStream()
		if err != nil {
			return fmt.Errorf("making the stream: %w", err)
		}
		s, err := sorts.New(f.dev, sorts.OnStream(st))
		if err != nil {
			return fmt.Errorf("making the Sorter: %w", err)
		}
		defer s.Close()
		if err := st.Close(); err != nil {
			return fmt.Errorf("closing the stream: %w", err)
		}
		return s.SortKeys(f.zeros(3), f.buf(2, 0, 1), 0, 2)
	}, nil, "", "has been closed"},
	{"nil Sorter", func(f *badFixture) error {
		var s *sorts.Sorter
		return errOf(s.Sort([]uint32{3, 1}))
	}, sorts.ErrNoDevice, "", "nil Sorter"},
	{"nil Sorter CountingSort", func(f *badFixture) error {
		var s *sorts.Sorter
		return s.CountingSort(f.zeros(2), f.buf(1, 0), 0, 2)
	}, sorts.ErrNoDevice, "", "nil Sorter"},
	{"nil Sorter OccurrenceSort", func(f *badFixture) error {
		var s *sorts.Sorter
		return errOf(s.OccurrenceSort(f.zeros(2), f.buf(1, 0), 0, 2))
	}, sorts.ErrNoDevice, "", "nil Sorter"},
	{"zero Sorter Sort", func(f *badFixture) error {
		var s sorts.Sorter
		return errOf(s.Sort([]uint32{3, 1}))
	}, sorts.ErrNoDevice, "", "not made by New"},
	{"zero Sorter CountingSort", func(f *badFixture) error {
		return (&sorts.Sorter{}).CountingSort(f.zeros(2), f.buf(1, 0), 0, 2)
	}, sorts.ErrNoDevice, "", "not made by New"},
	{"zero Sorter Close", func(f *badFixture) error { return (&sorts.Sorter{}).Close() }, sorts.ErrNoDevice, "", "not made by New"},
	{"closed Sorter", func(f *badFixture) error { return errOf(f.closedSorter.SortRange([]uint32{1}, 0, 2)) }, sorts.ErrClosed, "", "closed"},

	// Buffers that cannot be used.
	{"CountingSort nil out", func(f *badFixture) error { return f.fast.CountingSort(nil, f.buf(1), 0, 2) }, nil, "out", "nil buffer"},
	{"CountingSort nil keys", func(f *badFixture) error { return f.fast.CountingSort(f.zeros(1), nil, 0, 2) }, nil, "keys", "nil buffer"},
	{"CountingSort zero Buffer", func(f *badFixture) error {
		return f.fast.CountingSort(f.zeros(1), &runtime.Buffer[uint32]{}, 0, 2)
	}, nil, "keys", "zero Buffer"},
	{"CountingSort keys on another device", func(f *badFixture) error {
		return f.fast.CountingSort(f.zeros(1), f.bufOn(f.other, 1), 0, 2)
	}, nil, "keys", "the Sorter on"},
	{"CountingSort freed keys", func(f *badFixture) error { return f.fast.CountingSort(f.zeros(4), f.freed(4), 0, 2) }, nil, "keys", "freed"},
	{"CountingSort freed empty keys", func(f *badFixture) error { return f.fast.CountingSort(f.zeros(0), f.freed(0), 0, 2) }, nil, "keys", "freed"},
	{"CountingSort keys view past the end", func(f *badFixture) error {
		return f.fast.CountingSort(f.zeros(10), f.pastEnd(), 0, 9)
	}, nil, "keys", "out of range"},
	{"CountingSort out view past the end", func(f *badFixture) error {
		return f.fast.CountingSort(f.pastEnd(), f.zeros(10), 0, 9)
	}, nil, "out", "out of range"},
	{"CountingSort out shorter than keys", func(f *badFixture) error {
		return f.fast.CountingSort(f.zeros(3), f.buf(1, 2, 3, 0), 0, 4)
	}, nil, "out", "3 elements for 4 keys"},
	{"OccurrenceSort keys view past the end", func(f *badFixture) error {
		return errOf(f.fast.OccurrenceSort(f.zeros(10), f.pastEnd(), 0, 9))
	}, nil, "keys", "out of range"},
	{"OccurrenceSort nil out", func(f *badFixture) error { return errOf(f.fast.OccurrenceSort(nil, f.buf(1), 0, 2)) }, nil, "out", "nil buffer"},
	{"PaperCountingSort keys view past the end", func(f *badFixture) error {
		return f.fast.PaperCountingSort(f.zeros(10), f.pastEnd(), 0, 9)
	}, nil, "keys", "out of range"},
	{"PaperOccurrenceSort negative view", func(f *badFixture) error {
		return errOf(f.fast.PaperOccurrenceSort(f.zeros(2), f.buf(1, 2).View(-1, 2), 0, 9))
	}, nil, "keys", "out of range"},
	{"CountingSortAuto keys view past the end", func(f *badFixture) error {
		return f.fast.CountingSortAuto(f.zeros(10), f.pastEnd())
	}, nil, "keys", "out of range"},
	{"OccurrenceSortAuto freed out", func(f *badFixture) error {
		return errOf(f.fast.OccurrenceSortAuto(f.freed(2), f.buf(1, 2)))
	}, nil, "out", "freed"},
	{"KeyRange keys view past the end", func(f *badFixture) error { return errOf3(f.fast.KeyRange(f.pastEnd())) }, nil, "keys", "out of range"},
	{"KeyRange nil keys", func(f *badFixture) error { return errOf3(f.fast.KeyRange(nil)) }, nil, "keys", "nil buffer"},
	{"Scan in view past the end", func(f *badFixture) error { return f.fast.Scan(f.zeros(10), f.pastEnd()) }, nil, "in", "out of range"},
	{"Scan nil out", func(f *badFixture) error { return f.fast.Scan(nil, f.zeros(3)) }, nil, "out", "nil buffer"},
	{"Scan length mismatch", func(f *badFixture) error { return f.fast.Scan(f.zeros(3), f.zeros(4)) }, nil, "out", "3 elements for the scan of 4"},
	{"Scan into a shifted view of in", func(f *badFixture) error {
		b := f.zeros(9)
		return f.fast.Scan(b.View(1, 8), b.View(0, 8))
	}, nil, "out", "shares memory with in"},
	{"ScanExclusive out as long as in", func(f *badFixture) error {
		return f.fast.ScanExclusive(f.zeros(4), f.zeros(4))
	}, nil, "out", "want 5"},
	{"ScanExclusive in a view of out", func(f *badFixture) error {
		b := f.zeros(5)
		return f.fast.ScanExclusive(b, b.View(0, 4))
	}, nil, "out", "shares memory with in"},
	{"ScanExclusive in view past the end", func(f *badFixture) error {
		return f.paper.ScanExclusive(f.zeros(11), f.pastEnd())
	}, nil, "in", "out of range"},
	{"Histogram keys view past the end", func(f *badFixture) error { return f.fast.Histogram(f.zeros(9), f.pastEnd(), 0) }, nil, "keys", "out of range"},
	{"Histogram bins view past the end", func(f *badFixture) error { return f.fast.Histogram(f.pastEnd(), f.buf(1), 0) }, nil, "bins", "out of range"},
	{"Histogram nil bins", func(f *badFixture) error { return f.paper.Histogram(nil, f.buf(1), 0) }, nil, "bins", "nil buffer"},
	{"Histogram bins are the keys", func(f *badFixture) error {
		b := f.buf(0, 1, 2)
		return f.fast.Histogram(b, b, 0)
	}, nil, "bins", "shares memory with keys"},

	// Ranges.
	{"CountingSort empty range", func(f *badFixture) error { return f.fast.CountingSort(f.zeros(1), f.buf(5), 5, 5) }, sorts.ErrBadRange, "", "[5, 5): empty"},
	{"CountingSort inverted range", func(f *badFixture) error { return f.fast.CountingSort(f.zeros(1), f.buf(5), 9, 2) }, sorts.ErrBadRange, "", "[9, 2): empty"},
	{"CountingSort range wider than MaxBins", func(f *badFixture) error {
		return f.fast.CountingSort(f.zeros(1), f.buf(5), 0, sorts.MaxBins+1)
	}, sorts.ErrBadRange, "", "more than MaxBins"},
	{"SortRange empty range, no keys", func(f *badFixture) error { return errOf(f.fast.SortRange(nil, 7, 7)) }, sorts.ErrBadRange, "", "[7, 7): empty"},
	{"SortUniqueRange inverted range", func(f *badFixture) error { return errOf(f.fast.SortUniqueRange([]uint32{1}, 3, 1)) }, sorts.ErrBadRange, "", "[3, 1): empty"},
	{"CountingSort key at hi", func(f *badFixture) error { return f.fast.CountingSort(f.zeros(2), f.buf(1, 4), 0, 4) }, sorts.ErrKeyOutOfRange, "", "[0, 4)"},
	{"SortRange key 2^32-1 past a range ending at 2^32-1", func(f *badFixture) error {
		return errOf(f.fast.SortRange([]uint32{math.MaxUint32 - 1, math.MaxUint32}, math.MaxUint32-5, math.MaxUint32))
	}, sorts.ErrKeyOutOfRange, "", "[4294967290, 4294967295)"},
	{"paper OccurrenceSort key below lo", func(f *badFixture) error {
		return errOf(f.paper.OccurrenceSort(f.zeros(2), f.buf(9, 10), 10, 20))
	}, sorts.ErrKeyOutOfRange, "", "[10, 20)"},
	{"SortRange key below lo, one block", func(f *badFixture) error { return errOf(f.fast.SortRange([]uint32{5, 4}, 5, 10)) }, sorts.ErrKeyOutOfRange, "", "[5, 10)"},
	{"SortRange key at hi, one block", func(f *badFixture) error { return errOf(f.fast.SortRange([]uint32{5, 10}, 5, 10)) }, sorts.ErrKeyOutOfRange, "", "[5, 10)"},
	{"CountingSortAuto keys spanning more than MaxBins", func(f *badFixture) error {
		return f.fast.CountingSortAuto(f.zeros(2), f.buf(7, 7+sorts.MaxBins))
	}, sorts.ErrBadRange, "", "1073741825 values"},
	{"RadixSort with a nil output", func(f *badFixture) error { return sorts.RadixSort(f.fast, nil, f.buf(1, 2)) }, nil, "out", "nil buffer"},
	{"RadixSort of freed keys", func(f *badFixture) error { return sorts.RadixSort(f.fast, f.zeros(4), f.freed(4)) }, nil, "keys", "free"},
	{"RadixSort output of the wrong length", func(f *badFixture) error { return sorts.RadixSort(f.fast, f.zeros(3), f.buf(1, 2)) }, nil, "out", "3 elements for 2 keys"},
	{"RadixSort output overlapping the keys", func(f *badFixture) error {
		b := f.buf(4, 3, 2, 1, 0, 9)
		return sorts.RadixSort(f.fast, b.View(1, 5), b.View(0, 5))
	}, nil, "out", "shares memory with keys"},
	{"SortKeys output overlapping the keys", func(f *badFixture) error {
		b := f.buf(5, 5, 5, 5, 5, 5)
		return f.fast.SortKeys(b.View(1, 5), b.View(0, 5), 0, 9)
	}, nil, "out", "shares memory with keys"},
	{"RadixSort of bits past the key", func(f *badFixture) error { return sorts.RadixSort(f.fast, f.zeros(2), f.buf(1, 2), sorts.Bits(8, 33)) }, sorts.ErrBadRange, "", "bits [8, 33) of 32-bit keys"},
	{"RadixSort of an empty bit range", func(f *badFixture) error { return sorts.RadixSort(f.fast, f.zeros(2), f.buf(1, 2), sorts.Bits(4, 4)) }, sorts.ErrBadRange, "", "bits [4, 4)"},
	{"SortPairs values of the wrong length", func(f *badFixture) error {
		return sorts.SortPairs(f.fast, f.zeros(2), f.zeros(2), f.buf(1, 2), f.zeros(3))
	}, nil, "values", "3 elements for 2 keys"},
	{"SortPairs values sharing the keys' memory", func(f *badFixture) error {
		keys := f.buf(2, 1)
		return sorts.SortPairs(f.fast, f.zeros(2), f.zeros(2), keys, keys)
	}, nil, "values", "shares memory with keys"},
	{"Argsort into the keys", func(f *badFixture) error {
		keys := f.buf(2, 1)
		return sorts.Argsort(f.fast, keys, keys)
	}, nil, "out", "shares memory with keys"},
	{"RadixSortUnique into the keys", func(f *badFixture) error {
		keys := f.buf(2, 1)
		return errOf(sorts.RadixSortUnique(f.fast, keys, keys))
	}, nil, "out", "shares memory with keys"},
	{"RadixSortUnique by a range of bits", func(f *badFixture) error {
		return errOf(sorts.RadixSortUnique(f.fast, f.zeros(2), f.buf(2, 1), sorts.Bits(0, 8), sorts.Descending()))
	}, sorts.ErrBadOption, "", "RadixSortUnique takes no Bits option"},
	{"SortUniqueSlice by a range of bits", func(f *badFixture) error {
		return errOf(sorts.SortUniqueSlice(f.fast, []int64{2, 1}, sorts.Bits(3, 9)))
	}, sorts.ErrBadOption, "", "SortUniqueSlice takes no Bits option"},
	{"SortSlice with a nil option", func(f *badFixture) error {
		return errOf(sorts.SortSlice(f.fast, []float32{2, 1}, sorts.Descending(), nil))
	}, sorts.ErrBadOption, "", "radix option 1 is nil"},
	{"SortSlice of bits past the key", func(f *badFixture) error {
		return errOf(sorts.SortSlice(f.fast, []uint64{2, 1}, sorts.Bits(60, 65)))
	}, sorts.ErrBadRange, "", "bits [60, 65) of 64-bit keys"},
	{"SortPairsSlice of more values than keys", func(f *badFixture) error {
		_, _, err := sorts.SortPairsSlice(f.fast, []uint32{2, 1}, []float64{1, 2, 3})
		return err
	}, nil, "values", "3 values for 2 keys"},
	{"SortPairsSlice of fewer values than keys, all keys equal", func(f *badFixture) error {
		_, _, err := sorts.SortPairsSlice(f.fast, []int32{4, 4, 4}, []uint32{1})
		return err
	}, nil, "values", "1 values for 3 keys"},
	{"SortPairsSlice with a nil option", func(f *badFixture) error {
		_, _, err := sorts.SortPairsSlice(f.fast, []uint32{2, 1}, []uint32{0, 1}, nil)
		return err
	}, sorts.ErrBadOption, "", "radix option 0 is nil"},
	{"ArgsortSlice of bits past the key", func(f *badFixture) error {
		return errOf(sorts.ArgsortSlice(f.fast, []float32{2, 1}, sorts.Bits(30, 33)))
	}, sorts.ErrBadRange, "", "bits [30, 33) of 32-bit keys"},
	{"ArgsortSlice on a closed Sorter", func(f *badFixture) error {
		return errOf(sorts.ArgsortSlice(f.closedSorter, []uint64{2, 1}))
	}, sorts.ErrClosed, "", "closed"},
	{"RadixSort on a closed Sorter", func(f *badFixture) error { return sorts.RadixSort(f.closedSorter, f.zeros(1), f.buf(1)) }, sorts.ErrClosed, "", "closed"},
	{"Histogram bins past 2^32-1", func(f *badFixture) error {
		return f.fast.Histogram(f.zeros(10), f.buf(0), math.MaxUint32-5)
	}, sorts.ErrBadRange, "", "run past the largest key"},
	{"paper Histogram bins past 2^32-1", func(f *badFixture) error {
		return f.paper.Histogram(f.zeros(10), f.buf(0), math.MaxUint32-5)
	}, sorts.ErrBadRange, "", "run past the largest key"},
	{"Histogram with no bins", func(f *badFixture) error { return f.fast.Histogram(f.zeros(0), f.buf(3, 4), 3) }, sorts.ErrKeyOutOfRange, "", "no bins"},
	{"paper Histogram with no bins", func(f *badFixture) error { return f.paper.Histogram(f.zeros(0), f.buf(3), 3) }, sorts.ErrKeyOutOfRange, "", "no bins"},
	{"Histogram key past the bins", func(f *badFixture) error { return f.fast.Histogram(f.zeros(4), f.buf(3, 7), 3) }, sorts.ErrKeyOutOfRange, "", "[3, 7)"},

	// Requests too large for the device.
	{"SortRange over MaxBins values on the CPU", func(f *badFixture) error {
		return errOf(f.fast.SortRange(make([]uint32, kernels.BlockSortMaxKeys+1), 0, sorts.MaxBins))
	}, sorts.ErrTooLarge, "", fmt.Sprintf("counting sort of %d keys over 1073741824 values needs", kernels.BlockSortMaxKeys+1)},
	{"paper SortUniqueRange over MaxBins values on the CPU", func(f *badFixture) error {
		return errOf(f.paper.SortUniqueRange([]uint32{5, 1, 3}, 0, sorts.MaxBins))
	}, sorts.ErrTooLarge, "", "over 1073741824 values needs"},
	{"Histogram of 2^30 bins on the CPU", func(f *badFixture) error {
		bins, err := runtime.Alloc[uint32](f.dev, 1<<30) // allocated, never touched
		if err != nil {
			return err
		}
		defer bins.Free()
		return f.fast.Histogram(bins, f.buf(1), 0)
	}, sorts.ErrTooLarge, "", "histogram of 1 keys over 1073741824 values"},
	{"CountingSort over the limit of CPUMemoryLimit", func(f *badFixture) error {
		s, err := sorts.New(runtime.CPU(runtime.CPUMemoryLimit(1 << 20)))
		if err != nil {
			return err
		}
		defer s.Close()
		return errOf(s.SortRange(make([]uint32, kernels.BlockSortMaxKeys+1), 0, 1<<18))
	}, sorts.ErrTooLarge, "", fmt.Sprintf("counting sort of %d keys over 262144 values needs", kernels.BlockSortMaxKeys+1)},
	{"Sort whose copies pass the limit of CPUMemoryLimit", func(f *badFixture) error {
		s, err := sorts.New(runtime.CPU(runtime.CPUMemoryLimit(1 << 12)))
		if err != nil {
			return err
		}
		defer s.Close()
		return errOf(s.Sort(make([]uint32, 5000)))
	}, sorts.ErrTooLarge, "", "Sort of 5000 elements needs"},
	{"block sort over the limit of CPUMemoryLimit", func(f *badFixture) error {
		s, err := sorts.New(runtime.CPU(runtime.CPUMemoryLimit(1 << 12)))
		if err != nil {
			return err
		}
		defer s.Close()
		return errOf(s.SortRange([]uint32{1, 2}, 0, 1<<16))
	}, sorts.ErrTooLarge, "", "launching kernel radixBlock_u32"},
}

// badFixtureLimit is the memory limit of the catalogue's CPU device, so
// that what is too large does not depend on the machine.
const badFixtureLimit = 8 << 30

// TestBadInputCatalogue runs every bad input of the catalogue on the CPU
// device and checks the error it returns, with each row under a deadline
// and its panics recovered: a row that hangs or panics fails.
func TestBadInputCatalogue(t *testing.T) {
	dev := runtime.CPU(runtime.CPUMemoryLimit(badFixtureLimit))
	f := &badFixture{t: t, dev: dev, other: runtime.CPU()}
	var err error
	if f.fast, err = sorts.New(dev); err != nil {
		t.Fatal(err)
	}
	defer f.fast.Close()
	if f.paper, err = sorts.New(dev, sorts.Paper()); err != nil {
		t.Fatal(err)
	}
	defer f.paper.Close()
	if f.closedSorter, err = sorts.New(dev); err != nil {
		t.Fatal(err)
	}
	if err := f.closedSorter.Close(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, b := range f.allocs {
			_ = b.Free()
		}
	}()
	for _, row := range badInputs {
		t.Run(row.name, func(t *testing.T) {
			err := callWithDeadline(t, 20*time.Second, func() error { return row.call(f) })
			if err == nil {
				t.Fatalf("no error; want one containing %q", row.msg)
			}
			if row.is != nil && !errors.Is(err, row.is) {
				t.Errorf("error %q does not wrap %q", err, row.is)
			}
			if row.arg != "" {
				var be *sorts.BufferError
				if !errors.As(err, &be) || be.Arg != row.arg {
					t.Errorf("error %q is not a *sorts.BufferError for %s", err, row.arg)
				}
			}
			if !strings.Contains(err.Error(), row.msg) {
				t.Errorf("error %q does not say %q", err, row.msg)
			}
		})
	}
}

// callWithDeadline runs call in a goroutine and returns its error; a
// panic, or a call still running after d, fails the test.
func callWithDeadline(t *testing.T, d time.Duration, call func() error) error {
	t.Helper()
	type result struct {
		err      error
		panicked any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panicked: p}
			}
		}()
		done <- result{err: call()}
	}()
	select {
	case r := <-done:
		if r.panicked != nil {
			t.Fatalf("the call panicked: %v", r.panicked)
		}
		return r.err
	case <-time.After(d):
		t.Fatalf("the call did not return within %v", d)
	}
	return nil
}
