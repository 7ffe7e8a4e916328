package sorts_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// newSorters returns a fast and a paper Sorter on dev, closed when the
// test ends.
func newSorters(t *testing.T, dev runtime.Device) map[string]*sorts.Sorter {
	t.Helper()
	ss := map[string]*sorts.Sorter{}
	for name, opts := range map[string][]sorts.Option{"fast": nil, "paper": {sorts.Paper()}} {
		s, err := sorts.New(dev, opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		ss[name] = s
	}
	return ss
}

// fromSlice returns a buffer holding keys, freed when the test ends.
func fromSlice[T runtime.Scalar](t *testing.T, dev runtime.Device, keys []T) *runtime.Buffer[T] {
	t.Helper()
	b, err := runtime.FromSlice(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// TestHistogramBinsPastLargestKey gives bins that would hold values past
// 2^32-1: the key 0 must not wrap into one of them.
func TestHistogramBinsPastLargestKey(t *testing.T) {
	dev := runtime.CPU()
	for name, s := range newSorters(t, dev) {
		t.Run(name, func(t *testing.T) {
			bins := fromSlice(t, dev, make([]uint32, 10))
			err := s.Histogram(bins, fromSlice(t, dev, []uint32{0, math.MaxUint32}), math.MaxUint32-5)
			if err == nil {
				got, _ := bins.ToSlice()
				t.Fatalf("bins [2^32-6, 2^32+4) were accepted, and counted %v", got)
			}
			if !strings.Contains(err.Error(), "4294967290") {
				t.Errorf("the error %q does not name lo", err)
			}
			// The last bins that exist are fine.
			if err := s.Histogram(bins.View(0, 6), fromSlice(t, dev, []uint32{math.MaxUint32, math.MaxUint32 - 5}), math.MaxUint32-5); err != nil {
				t.Fatalf("bins [2^32-6, 2^32): %v", err)
			}
			got, err := bins.View(0, 6).ToSlice()
			if err != nil || !slices.Equal(got, []uint32{1, 0, 0, 0, 0, 1}) {
				t.Fatalf("bins [2^32-6, 2^32): %v, %v", got, err)
			}
		})
	}
}

// TestHistogramNoBins counts keys into no bins: every key is outside the
// range, and no keys is fine.
func TestHistogramNoBins(t *testing.T) {
	dev := runtime.CPU()
	for name, s := range newSorters(t, dev) {
		t.Run(name, func(t *testing.T) {
			bins := fromSlice(t, dev, []uint32{})
			err := callWithDeadline(t, 10*time.Second, func() error { return s.Histogram(bins, fromSlice(t, dev, []uint32{4, 5}), 4) })
			if !errors.Is(err, sorts.ErrKeyOutOfRange) {
				t.Fatalf("keys into no bins: got %v, want ErrKeyOutOfRange", err)
			}
			if err := s.Histogram(bins, fromSlice(t, dev, []uint32{}), 4); err != nil {
				t.Fatalf("no keys into no bins: %v", err)
			}
		})
	}
}

// TestBadViewsAreErrors gives every entry point that takes buffers a view
// past the end of its buffer, as keys and as output: each must return the
// view's error, not treat it as empty.
func TestBadViewsAreErrors(t *testing.T) {
	dev := runtime.CPU()
	for name, s := range newSorters(t, dev) {
		t.Run(name, func(t *testing.T) {
			bad := fromSlice(t, dev, []uint32{1, 2, 3}).View(2, 5)
			good := fromSlice(t, dev, []uint32{1, 2, 3, 4, 5})
			out := fromSlice(t, dev, make([]uint32, 5))
			calls := map[string]func() error{
				"CountingSort keys":        func() error { return s.CountingSort(out, bad, 0, 9) },
				"CountingSort out":         func() error { return s.CountingSort(bad, good, 0, 9) },
				"OccurrenceSort keys":      func() error { return errOf(s.OccurrenceSort(out, bad, 0, 9)) },
				"OccurrenceSort out":       func() error { return errOf(s.OccurrenceSort(bad, good, 0, 9)) },
				"PaperCountingSort keys":   func() error { return s.PaperCountingSort(out, bad, 0, 9) },
				"PaperOccurrenceSort keys": func() error { return errOf(s.PaperOccurrenceSort(out, bad, 0, 9)) },
				"CountingSortAuto keys":    func() error { return s.CountingSortAuto(out, bad) },
				"CountingSortAuto out":     func() error { return s.CountingSortAuto(bad, good) },
				"OccurrenceSortAuto keys":  func() error { return errOf(s.OccurrenceSortAuto(out, bad)) },
				"KeyRange keys":            func() error { return errOf3(s.KeyRange(bad)) },
				"Histogram keys":           func() error { return s.Histogram(out, bad, 0) },
				"Histogram bins":           func() error { return s.Histogram(bad, good, 0) },
				"Scan in":                  func() error { return s.Scan(out, bad) },
				"Scan out":                 func() error { return s.Scan(bad, good) },
				"ScanExclusive in":         func() error { return s.ScanExclusive(out.View(0, 1), bad) },
			}
			for call, run := range calls {
				err := callWithDeadline(t, 10*time.Second, run)
				if err == nil || !strings.Contains(err.Error(), "out of range") {
					t.Errorf("%s with a view past the end: got %v, want the view's error", call, err)
				}
			}
		})
	}
}

// TestSortInt32WideKeys checks that SortInt32 sorts keys spanning more
// than MaxBins values (by the radix sort) instead of refusing them.
func TestSortInt32WideKeys(t *testing.T) {
	s, err := sorts.New(runtime.CPU())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, keys := range [][]int32{{math.MaxInt32, 0, math.MinInt32}, {1<<30 + 100, -5}} {
		got, err := s.SortInt32(keys)
		if want := slices.Sorted(slices.Values(keys)); err != nil || !slices.Equal(got, want) {
			t.Errorf("SortInt32(%v) = %v, %v; want %v", keys, got, err, want)
		}
	}
}

// TestCPUCostCheckedUpFront asks the CPU evaluator for a counting sort
// over 2^30 values (legal, and some 140 GiB there): the Sorter must refuse
// it before it launches anything. The device's context is cancelled, so
// that any launch fails with context.Canceled instead of that refusal.
func TestCPUCostCheckedUpFront(t *testing.T) {
	// A device with a fixed limit, so that the answer does not depend on
	// the machine's memory.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	dev := runtime.CPU(runtime.CPUMemoryLimit(4<<30), runtime.CPUContext(cancelled))
	for name, s := range newSorters(t, dev) {
		t.Run(name, func(t *testing.T) {
			keys := make([]uint32, kernels.BlockSortMaxKeys+1) // more than one block sorts
			err := callWithDeadline(t, 20*time.Second, func() error { return errOf(s.SortRange(keys, 0, 1<<30)) })
			switch {
			case err == nil:
				t.Fatal("a counting sort over 2^30 values on the CPU evaluator was accepted")
			case errors.Is(err, context.Canceled):
				t.Fatalf("the sort launched a kernel before refusing: %v", err)
			case !strings.Contains(err.Error(), "1073741824 values"):
				t.Errorf("the error %q does not say what was asked", err)
			}
		})
	}
}

// TestCPUSortCancelled: a sort on a CPU device whose context ends stops
// with the context's error, from a launch, instead of running to its end
// (runtime's tests check that a launch stops at the next block, or within
// one).
func TestCPUSortCancelled(t *testing.T) {
	for name, cancelAfter := range map[string]time.Duration{"before": 0, "during": 50 * time.Millisecond} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), cancelAfter)
			defer cancel()
			s, err := sorts.New(runtime.CPU(runtime.CPUContext(ctx)))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			keys := make([]uint32, 1<<22) // seconds on the evaluator
			for i := range keys {
				keys[i] = uint32(i*2654435761) % (1 << 16)
			}
			_, err = s.SortRange(keys, 0, 1<<16)
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "kernel ") {
				t.Fatalf("sort on a device whose context ended: %v, want DeadlineExceeded from a launch", err)
			}
		})
	}
}

// TestConcurrentSorter sorts different random inputs from many goroutines
// on one Sorter of the CPU device, and checks every result against plain
// Go.
func TestConcurrentSorter(t *testing.T) {
	seed := uint64(proptest.Parameters(t, 1).Rng.Int63())
	dev := runtime.CPU()
	for name, s := range newSorters(t, dev) {
		t.Run(name, func(t *testing.T) {
			const goroutines, rounds = 8, 6
			var wg sync.WaitGroup
			errs := make(chan error, goroutines*rounds)
			for g := range goroutines {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(seed, uint64(g)))
					for i := range rounds {
						n, span := 1+r.IntN(2000), 1+r.Uint32N(1<<13)
						lo := r.Uint32N(1 << 31)
						keys := keysIn(r, n, lo, span)
						var got, want []uint32
						var err error
						switch i % 4 {
						case 0:
							got, err = s.Sort(keys)
							want = slices.Sorted(slices.Values(keys))
						case 1:
							got, err = s.SortRange(keys, lo, lo+span)
							want = slices.Sorted(slices.Values(keys))
						case 2:
							got, err = s.SortUnique(keys)
							want = uniqueSorted(keys)
						case 3:
							got, err = s.SortUniqueRange(keys, lo, lo+span)
							want = uniqueSorted(keys)
						}
						if err != nil {
							errs <- fmt.Errorf("goroutine %d round %d: %w", g, i, err)
						} else if d := firstDiff(got, want); d >= 0 {
							errs <- fmt.Errorf("goroutine %d round %d: %d keys in [%d, %d+%d): first difference at %d", g, i, n, lo, lo, span, d)
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// TestConcurrentClose closes a Sorter while goroutines sort on it: every
// call either sorts right or says the Sorter is closed.
func TestConcurrentClose(t *testing.T) {
	s, err := sorts.New(runtime.CPU())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 99))
			for range 4 {
				keys := keysIn(r, 500, 100, 1000)
				got, err := s.Sort(keys)
				switch {
				case errors.Is(err, sorts.ErrClosed):
				case err != nil:
					t.Errorf("goroutine %d: %v", g, err)
				case firstDiff(got, slices.Sorted(slices.Values(keys))) >= 0:
					t.Errorf("goroutine %d: wrong result", g)
				}
			}
		})
	}
	time.Sleep(5 * time.Millisecond)
	if err := s.Close(); err != nil {
		t.Error(err)
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Errorf("closing again: %v", err)
	}
}

// TestEdgeInputs sorts what a careless or hostile caller gives: one key,
// ranges at both ends of uint32, int32 extremes, sorting in place and
// into an overlapping view, and checks every result against plain Go.
func TestEdgeInputs(t *testing.T) {
	dev := runtime.CPU()
	for name, s := range newSorters(t, dev) {
		t.Run(name, func(t *testing.T) {
			top := uint32(math.MaxUint32)
			for _, c := range []struct {
				keys   []uint32
				lo, hi uint32
			}{
				{[]uint32{7}, 7, 8},
				{[]uint32{0}, 0, 1},
				{[]uint32{top - 1}, top - 1, top},
				{[]uint32{top - 1, top - 3, top - 1}, top - 3, top},
				{[]uint32{top - 1, top - 40, top - 33, top - 1}, top - 40, top},
				{[]uint32{0, 1 << 20}, 0, 1 << 10},
			} {
				got, err := s.SortRange(c.keys, c.lo, c.hi)
				want := slices.Sorted(slices.Values(c.keys))
				inRange := slices.Max(c.keys) < c.hi
				switch {
				case !inRange && !errors.Is(err, sorts.ErrKeyOutOfRange):
					t.Errorf("SortRange(%v, %d, %d): got %v, want ErrKeyOutOfRange", c.keys, c.lo, c.hi, err)
				case inRange && (err != nil || !slices.Equal(got, want)):
					t.Errorf("SortRange(%v, %d, %d) = %v, %v", c.keys, c.lo, c.hi, got, err)
				}
				got, err = s.SortUniqueRange(c.keys, c.lo, c.hi)
				switch {
				case !inRange && !errors.Is(err, sorts.ErrKeyOutOfRange):
					t.Errorf("SortUniqueRange(%v, %d, %d): got %v, want ErrKeyOutOfRange", c.keys, c.lo, c.hi, err)
				case inRange && (err != nil || !slices.Equal(got, uniqueSorted(c.keys))):
					t.Errorf("SortUniqueRange(%v, %d, %d) = %v, %v", c.keys, c.lo, c.hi, got, err)
				}
				got, err = s.SortUnique(c.keys)
				if err != nil || !slices.Equal(got, uniqueSorted(c.keys)) {
					t.Errorf("SortUnique(%v) = %v, %v", c.keys, got, err)
				}
			}
			for _, keys := range [][]int32{{math.MinInt32}, {math.MaxInt32, math.MaxInt32 - 1}, {math.MinInt32 + 2, math.MinInt32, math.MinInt32}, {-1, 0, 1, -1}} {
				got, err := s.SortInt32(keys)
				if err != nil || !slices.Equal(got, slices.Sorted(slices.Values(keys))) {
					t.Errorf("SortInt32(%v) = %v, %v", keys, got, err)
				}
			}
			keys := keysIn(rand.New(rand.NewPCG(3, 4)), 5000, 1000, 3000)
			want := slices.Sorted(slices.Values(keys))
			inPlace := fromSlice(t, dev, keys)
			if err := s.CountingSort(inPlace, inPlace, 1000, 4000); err != nil {
				t.Fatal(err)
			}
			if got, err := inPlace.ToSlice(); err != nil || firstDiff(got, want) >= 0 {
				t.Errorf("counting sort in place: first difference at %d (%v)", firstDiff(got, want), err)
			}
			shifted := fromSlice(t, dev, append(slices.Clone(keys), 0))
			if err := s.CountingSortAuto(shifted.View(1, len(keys)), shifted.View(0, len(keys))); err != nil {
				t.Fatal(err)
			}
			if got, err := shifted.View(1, len(keys)).ToSlice(); err != nil || firstDiff(got, want) >= 0 {
				t.Errorf("counting sort into a view overlapping the keys: first difference at %d (%v)", firstDiff(got, want), err)
			}
		})
	}
}
