package sorts

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestCeilDivNearMaxInt checks that rounding up does not overflow.
func TestCeilDivNearMaxInt(t *testing.T) {
	for _, c := range []struct{ a, b, want int }{
		{0, 7, 0}, {1, 7, 1}, {7, 7, 1}, {8, 7, 2},
		{math.MaxInt, 1, math.MaxInt},
		{math.MaxInt, 4096, math.MaxInt/4096 + 1},
		{math.MaxUint32, kernels.ScanTile, 1 << 20},
	} {
		if got := ceilDiv(c.a, c.b); got != c.want {
			t.Errorf("ceilDiv(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestRangeChecksAtTheEdges checks the range checks where uint32
// arithmetic would wrap.
func TestRangeChecksAtTheEdges(t *testing.T) {
	top := uint32(math.MaxUint32)
	for _, c := range []struct {
		lo, hi uint32
		values int // 0: an error
	}{
		{0, 1, 1}, {top - 1, top, 1}, {0, MaxBins, MaxBins}, {top - MaxBins, top, MaxBins},
		{0, MaxBins + 1, 0}, {1, 0, 0}, {5, 5, 0}, {0, top, 0}, {top, 0, 0},
	} {
		values, err := checkRange(c.lo, c.hi)
		if c.values == 0 && !errors.Is(err, ErrBadRange) || c.values != 0 && (err != nil || values != c.values) {
			t.Errorf("checkRange(%d, %d) = %d, %v; want %d values", c.lo, c.hi, values, err, c.values)
		}
	}
	for _, c := range []struct {
		lo   uint32
		bins int
		ok   bool
	}{
		{0, 0, true}, {top, 1, true}, {top, 2, false}, {top - 5, 6, true}, {top - 5, 10, false},
		{0, math.MaxUint32, true}, {1, math.MaxUint32, true}, {2, math.MaxUint32, false},
	} {
		if err := checkBins(c.lo, c.bins); (err == nil) != c.ok || err != nil && !errors.Is(err, ErrBadRange) {
			t.Errorf("checkBins(%d, %d) = %v, want ok %v", c.lo, c.bins, err, c.ok)
		}
	}
	for _, c := range []struct {
		lo, hi uint32
		values int
	}{{0, 0, 1}, {top, top, 1}, {0, MaxBins - 1, MaxBins}, {0, MaxBins, 0}, {0, top, 0}} {
		values, err := checkSpan(c.lo, c.hi, unsignedKeys)
		if c.values == 0 && !errors.Is(err, ErrBadRange) || c.values != 0 && (err != nil || values != c.values) {
			t.Errorf("checkSpan(%d, %d) = %d, %v; want %d values", c.lo, c.hi, values, err, c.values)
		}
	}
}

// TestScanNeedsOfTheLongestInput checks the scratch of a scan of 2^32-1
// elements, level by level.
func TestScanNeedsOfTheLongestInput(t *testing.T) {
	for _, c := range []struct {
		paper bool
		want  []int
	}{
		{false, []int{1 << 20, 1 << 8, 1}},
		{true, []int{1 << 22, 1 << 22, 1 << 12, 1 << 12, 4, 4, 1}},
	} {
		var s Sorter
		var got []int
		for _, nd := range s.scanNeeds(math.MaxUint32, c.paper) {
			got = append(got, nd.n)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("paper %v: scratch %v, want %v", c.paper, got, c.want)
		}
	}
	var s Sorter
	if needs := s.scanNeeds(0, false); len(needs) != 0 {
		t.Errorf("a scan of nothing needs %v", needs)
	}
}

// TestHugeRequestsRefused checks that requests no device can serve are
// refused before anything is allocated: more keys than a kernel takes,
// and the CPU evaluator's costs near 2^32 elements.
func TestHugeRequestsRefused(t *testing.T) {
	s := &Sorter{dev: runtime.CPU(runtime.CPUMemoryLimit(4 << 30))}
	for _, n := range []int{1 << 32, math.MaxInt} {
		if err := s.checkSlice(request{op: "counting sort", keys: n, written: n}); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2^32-1") {
			t.Errorf("%d keys: got %v, want ErrTooLarge", n, err)
		}
	}
	if err := s.checkSlice(request{op: "counting sort", keys: math.MaxUint32, written: math.MaxUint32}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("2^32-1 keys on the CPU evaluator: got %v, want ErrTooLarge", err)
	}
	if err := s.checkSlice(request{op: "counting sort", keys: 1 << 20, written: 1 << 20}); err != nil {
		t.Errorf("2^20 keys on the CPU evaluator: %v", err)
	}
	unlimited := &Sorter{dev: runtime.CPU(runtime.CPUMemoryLimit(math.MaxInt64))}
	if err := unlimited.checkSlice(request{op: "counting sort", keys: math.MaxUint32, written: math.MaxUint32}); err != nil {
		t.Errorf("2^32-1 keys without a limit: %v", err)
	}
}

// TestPlanSharedOfNoCells checks the shared-table plan of an empty table
// and of the most keys: no division by zero, at least one part.
func TestPlanSharedOfNoCells(t *testing.T) {
	fns := make([]runtime.Function, len(histogramShapes))
	for _, c := range []struct{ cells, n int }{{0, 0}, {0, 100}, {1, 0}, {1, math.MaxUint32}, {4 << 15, math.MaxUint32}} {
		p, ok := planShared(fns, histogramShapes, c.cells, c.n, func(runtime.Function) int { return maxParts })
		if !ok || p.parts < 1 || p.parts > maxParts || p.slices < 1 {
			t.Errorf("planShared(%d cells, %d keys) = %+v, %v", c.cells, c.n, p, ok)
		}
	}
	if _, ok := planShared(fns, histogramShapes, 4<<15+1, 10, func(runtime.Function) int { return maxParts }); ok {
		t.Error("a table wider than four slices was planned in shared memory")
	}
}

// TestAllocationErrorsPropagate makes the device refuse allocations (it is
// closed) and checks that a call that must grow its scratch returns the
// device's error, saying what it was allocating, with the Sorter's
// scratch freed; and that a sort of a slice says it could not copy it.
func TestAllocationErrorsPropagate(t *testing.T) {
	dev := runtime.CPU()
	s, err := New(dev)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := runtime.FromSlice(dev, []uint32{5, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	out, err := runtime.Alloc[uint32](dev, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CountingSort(out, keys, 0, 16); err != nil {
		t.Fatal(err)
	}
	if s.sc.bytes() == 0 {
		t.Fatal("the sort kept no scratch")
	}
	if err := dev.Close(); err != nil {
		t.Fatal(err)
	}
	err = s.CountingSort(out, keys, 0, 1<<16)
	if err == nil || !strings.Contains(err.Error(), "allocating") || !strings.Contains(err.Error(), "closed") {
		t.Errorf("growing the scratch on a closed device: got %v", err)
	}
	if b := s.sc.bytes(); b != 0 {
		t.Errorf("after a failed allocation the Sorter holds %d bytes of scratch", b)
	}
	_, err = s.SortRange([]uint32{1, 2}, 0, 4)
	if err == nil || !strings.Contains(err.Error(), "copying the keys") || !strings.Contains(err.Error(), "closed") {
		t.Errorf("sorting a slice on a closed device: got %v", err)
	}
}
