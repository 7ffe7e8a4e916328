package sorts_test

import (
	"cmp"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// The fuzz target's Sorters: fast and paper on one CPU device, with a
// memory limit that keeps every execution cheap (a call estimated to cost
// more returns ErrTooLarge).
var fuzzSorters struct {
	once        sync.Once
	dev         runtime.Device
	fast, paper *sorts.Sorter
	err         error
}

const (
	fuzzMaxKeys   = 256     // keys per execution
	fuzzCheapSpan = 1 << 12 // a valid range of at most this many values must be served
	fuzzLimit     = 4 << 20 // the CPU device's memory limit
)

// fuzzCall is one call of the host API on fuzzed arguments.
type fuzzCall struct {
	op       int
	paper    bool
	keys     []uint32 // the keys the call sees (a view's when it is valid)
	lo, hi   uint32
	keysOK   bool // the keys' view is valid
	outOK    bool // the output's view is valid
	outExtra int  // the output's length minus the one it should have
}

// fuzzOps are the entry points FuzzSorts calls, by number.
var fuzzOps = []string{
	"CountingSort", "OccurrenceSort", "PaperCountingSort", "PaperOccurrenceSort",
	"CountingSortAuto", "OccurrenceSortAuto", "KeyRange", "Histogram", "Scan", "ScanExclusive",
	"SortRange", "SortUniqueRange", "Sort", "SortUnique", "SortInt32",
}

// FuzzSorts calls an entry point of the host API on fuzzed keys, ranges
// (any uint32 bounds, those near 2^32 and inverted ones included) and
// views (valid or not) on the CPU device. A valid call must return what
// plain Go computes; an invalid one must return an error of the kind its
// fault calls for; no call may panic or hang.
func FuzzSorts(f *testing.F) {
	word := func(ks ...uint32) []byte {
		b := make([]byte, 4*len(ks))
		for i, k := range ks {
			binary.LittleEndian.PutUint32(b[4*i:], k)
		}
		return b
	}
	// op, raw keys, lo, span (hi = lo+span, wrapping), the keys' view
	// (offset, length; 0, -1: the whole buffer), the output's length
	// change (127: a view past its end).
	f.Add(uint8(0), word(3, 1, 2, 3), uint32(10), uint32(16), int8(0), int8(-1), int8(0))
	f.Add(uint8(1), word(9, 9, 0, 4), uint32(0), uint32(10), int8(0), int8(-1), int8(0))
	f.Add(uint8(4+15), word(5, 0, 7), uint32(math.MaxUint32-7), uint32(7), int8(0), int8(-1), int8(0))
	f.Add(uint8(7), word(0, 1), uint32(math.MaxUint32-5), uint32(10), int8(0), int8(-1), int8(0))
	f.Add(uint8(7+15), word(0, 1), uint32(4), uint32(0), int8(0), int8(-1), int8(0))
	f.Add(uint8(7+30), word(0, 1), uint32(math.MaxUint32-1), uint32(0), int8(0), int8(-1), int8(2))
	f.Add(uint8(8), word(1, 2, 3, 4, 5), uint32(0), uint32(1), int8(1), int8(3), int8(0))
	f.Add(uint8(9), word(1, 2, 3), uint32(0), uint32(1), int8(2), int8(5), int8(0))
	f.Add(uint8(10), word(1, 2, 3), uint32(7), uint32(0), int8(0), int8(-1), int8(0))
	f.Add(uint8(12+30), word(0, math.MaxUint32), uint32(0), uint32(0), int8(0), int8(-1), int8(0))
	f.Add(uint8(14+30), word(1<<31, 1<<31-1, 5), uint32(0), uint32(0), int8(0), int8(-1), int8(0))
	f.Add(uint8(2), word(4, 4, 4), uint32(4), uint32(1), int8(0), int8(-1), int8(127))
	f.Add(uint8(3), word(4, 5, 6), uint32(4), uint32(3), int8(0), int8(-1), int8(-1))
	f.Add(uint8(6+30), word(), uint32(0), uint32(0), int8(0), int8(-1), int8(0))
	f.Fuzz(func(t *testing.T, op uint8, raw []byte, lo, span uint32, off, count, outChange int8) {
		fuzzSorters.once.Do(func() {
			fuzzSorters.dev = runtime.CPU(runtime.CPUMemoryLimit(fuzzLimit))
			fuzzSorters.fast, fuzzSorters.err = sorts.New(fuzzSorters.dev)
			if fuzzSorters.err == nil {
				fuzzSorters.paper, fuzzSorters.err = sorts.New(fuzzSorters.dev, sorts.Paper())
			}
		})
		if fuzzSorters.err != nil {
			t.Fatal(fuzzSorters.err)
		}
		keys := fuzzKeys(raw, lo, span, op/30%2 == 1)
		c := fuzzCall{op: int(op) % len(fuzzOps), paper: op/15%2 == 1, lo: lo, hi: lo + span, keysOK: true, outOK: outChange != 127}
		if -2 <= outChange && outChange <= 2 {
			c.outExtra = int(outChange)
		}
		whole := off == 0 && count == -1
		if !whole {
			c.keysOK = off >= 0 && count >= 0 && int(off)+int(count) <= len(keys)
		}
		c.keys = keys
		if !whole && c.keysOK {
			c.keys = keys[off : int(off)+int(count)]
		}
		runFuzzCall(t, c, keys, int(off), int(count), whole)
	})
}

// renewFuzzSorters closes both fuzz Sorters, freeing their scratch, opens
// new ones and returns the paper one or the fast one.
func renewFuzzSorters(t *testing.T, paper bool) *sorts.Sorter {
	if err := errors.Join(fuzzSorters.fast.Close(), fuzzSorters.paper.Close()); err != nil {
		t.Fatal(err)
	}
	var err error
	fuzzSorters.fast, err = sorts.New(fuzzSorters.dev)
	if err == nil {
		fuzzSorters.paper, err = sorts.New(fuzzSorters.dev, sorts.Paper())
	}
	if err != nil {
		t.Fatal(err)
	}
	if paper {
		return fuzzSorters.paper
	}
	return fuzzSorters.fast
}

// fuzzKeys makes at most fuzzMaxKeys keys of raw: the words themselves
// when asIs, else lo plus a word modulo the range's values plus one (so
// that the key at hi, and past 2^32-1 the keys that wrap, occur too).
func fuzzKeys(raw []byte, lo, span uint32, asIs bool) []uint32 {
	keys := make([]uint32, min(len(raw)/4, fuzzMaxKeys))
	values := uint64(min(span, fuzzCheapSpan)) + 1
	for i := range keys {
		w := binary.LittleEndian.Uint32(raw[4*i:])
		keys[i] = w
		if !asIs {
			keys[i] = lo + uint32(uint64(w)%values)
		}
	}
	return keys
}

// runFuzzCall makes the buffers of c, runs it under a deadline and checks it
// against plain Go.
func runFuzzCall(t *testing.T, c fuzzCall, all []uint32, off, count int, whole bool) {
	dev := fuzzSorters.dev
	s := fuzzSorters.fast
	if c.paper {
		s = fuzzSorters.paper
	}
	backing, err := runtime.FromSlice(dev, all)
	if err != nil {
		t.Fatal(err)
	}
	defer backing.Free()
	in := backing
	if !whole {
		in = backing.View(off, count)
	}
	outLen := max(len(c.keys)+c.outExtra, 0)
	c.outExtra = outLen - len(c.keys) // what it is once no shorter than empty
	if fuzzOps[c.op] == "ScanExclusive" {
		outLen++
	}
	outBuf, err := runtime.Alloc[uint32](dev, outLen)
	if err != nil {
		t.Fatal(err)
	}
	defer outBuf.Free()
	out := outBuf
	if !c.outOK {
		out = outBuf.View(1, outLen+4)
	}
	var got []uint32
	call := func() error {
		return callWithDeadline(t, time.Minute, func() error {
			var err error
			got, err = callOp(s, c, out, in)
			return err
		})
	}
	err = call()
	want, faults, costly := c.expect()
	if errors.Is(err, sorts.ErrTooLarge) && !costly && len(faults) == 0 {
		// The two Sorters share the device, and the scratch the other
		// keeps from earlier calls may leave too little for this one: a
		// cheap call must succeed once both start afresh.
		s = renewFuzzSorters(t, c.paper)
		err = call()
	}
	switch {
	case len(faults) > 0 && err == nil:
		t.Fatalf("%s %+v: no error, want one of %v", fuzzOps[c.op], c, faults)
	case len(faults) > 0 && !slices.ContainsFunc(faults, func(f fault) bool { return f.matches(err) }) && !(costly && errors.Is(err, sorts.ErrTooLarge)):
		t.Fatalf("%s %+v: error %v, want one of %v", fuzzOps[c.op], c, err, faults)
	case len(faults) > 0:
	case err != nil && !(costly && errors.Is(err, sorts.ErrTooLarge)):
		t.Fatalf("%s %+v: %v", fuzzOps[c.op], c, err)
	case err == nil && !slices.Equal(got, want):
		t.Fatalf("%s %+v: got %v, want %v", fuzzOps[c.op], c, got, want)
	}
}

// callOp calls c's entry point and returns its result as uint32s (a
// sort's output, the bins, the scan, or the key range).
func callOp(s *sorts.Sorter, c fuzzCall, out, in *runtime.Buffer[uint32]) ([]uint32, error) {
	front := func(n int, err error) ([]uint32, error) {
		if err != nil {
			return nil, err
		}
		return out.View(0, n).ToSlice()
	}
	all := func(err error) ([]uint32, error) { return front(out.Len(), err) }
	switch fuzzOps[c.op] {
	case "CountingSort":
		return all(s.CountingSort(out, in, c.lo, c.hi))
	case "OccurrenceSort":
		return front(s.OccurrenceSort(out, in, c.lo, c.hi))
	case "PaperCountingSort":
		return all(s.PaperCountingSort(out, in, c.lo, c.hi))
	case "PaperOccurrenceSort":
		return front(s.PaperOccurrenceSort(out, in, c.lo, c.hi))
	case "CountingSortAuto":
		return all(s.CountingSortAuto(out, in))
	case "OccurrenceSortAuto":
		return front(s.OccurrenceSortAuto(out, in))
	case "KeyRange":
		lo, hi, ok, err := s.KeyRange(in)
		if !ok {
			return nil, err
		}
		return []uint32{lo, hi}, err
	case "Histogram":
		return all(s.Histogram(out, in, c.lo))
	case "Scan":
		return all(s.Scan(out, in))
	case "ScanExclusive":
		return all(s.ScanExclusive(out, in))
	case "SortRange":
		return s.SortRange(c.keys, c.lo, c.hi)
	case "SortUniqueRange":
		return s.SortUniqueRange(c.keys, c.lo, c.hi)
	case "Sort":
		return s.Sort(c.keys)
	case "SortUnique":
		return s.SortUnique(c.keys)
	case "SortInt32":
		ks := make([]int32, len(c.keys))
		for i, k := range c.keys {
			ks[i] = int32(k)
		}
		sorted, err := s.SortInt32(ks)
		r := make([]uint32, len(sorted))
		for i, k := range sorted {
			r[i] = uint32(k)
		}
		return r, err
	}
	panic("unknown op " + fuzzOps[c.op])
}

// fault is a fault of a call's arguments and how its error shows.
type fault struct {
	is  error  // errors.Is target, or nil
	arg string // a *sorts.BufferError for this argument, or ""
}

func (f fault) matches(err error) bool {
	if f.arg != "" {
		var be *sorts.BufferError
		return errors.As(err, &be) && be.Arg == f.arg
	}
	return errors.Is(err, f.is)
}

func (f fault) String() string {
	if f.arg != "" {
		return "a BufferError for " + f.arg
	}
	return f.is.Error()
}

// blockSorted reports whether the call name of c sorts its keys in one
// block, whatever their span: Sort, SortRange and SortInt32 of up to
// kernels.BlockSortMaxKeys keys by the fast pipeline. The block sort's
// launch needs a fixed state on the CPU evaluator (its shared arrays for
// BlockSortMaxKeys keys), which a small memory limit may refuse as too
// large whatever the number of keys.
func (c fuzzCall) blockSorted(name string) bool {
	return (name == "Sort" || name == "SortRange" || name == "SortInt32") && !c.paper && len(c.keys) > 0 &&
		len(c.keys) <= kernels.BlockSortMaxKeys
}

// expect returns what c must return when it has no fault, its faults, and
// whether it may be refused as too large (a valid range of many values).
func (c fuzzCall) expect() (want []uint32, faults []fault, costly bool) {
	name := fuzzOps[c.op]
	buffers := !slices.Contains([]string{"SortRange", "SortUniqueRange", "Sort", "SortUnique", "SortInt32"}, name)
	if buffers && !c.keysOK {
		faults = append(faults, fault{arg: map[bool]string{true: "in", false: "keys"}[name == "Scan" || name == "ScanExclusive"]})
	}
	switch {
	case !buffers || name == "KeyRange":
	case name == "Histogram" && !c.outOK:
		faults = append(faults, fault{arg: "bins"}) // any number of bins is fine
	case name != "Histogram" && (!c.outOK || c.outExtra != 0):
		faults = append(faults, fault{arg: "out"})
	}
	sorted := slices.Sorted(slices.Values(c.keys))
	unique := slices.Compact(slices.Clone(sorted))
	inRange := func(lo uint32, hi uint64) bool {
		return len(c.keys) == 0 || sorted[0] >= lo && uint64(sorted[len(sorted)-1]) < hi
	}
	switch name {
	case "CountingSort", "PaperCountingSort", "SortRange", "OccurrenceSort", "PaperOccurrenceSort", "SortUniqueRange":
		want = sorted
		if slices.Contains([]string{"OccurrenceSort", "PaperOccurrenceSort", "SortUniqueRange"}, name) {
			want = unique
		}
		values := uint64(c.hi) - uint64(c.lo)
		switch {
		case c.hi <= c.lo || values > sorts.MaxBins:
			faults = append(faults, fault{is: sorts.ErrBadRange})
		case !inRange(c.lo, uint64(c.hi)):
			faults = append(faults, fault{is: sorts.ErrKeyOutOfRange})
		}
		costly = c.blockSorted(name) || values > fuzzCheapSpan
	case "CountingSortAuto", "OccurrenceSortAuto", "Sort", "SortUnique", "SortInt32":
		want = sorted
		if name == "OccurrenceSortAuto" || name == "SortUnique" {
			want = unique
		}
		if name == "SortInt32" {
			want = slices.SortedFunc(slices.Values(c.keys), func(a, b uint32) int { return cmp.Compare(int32(a), int32(b)) })
		}
		if len(want) > 0 {
			first, last := want[0], want[len(want)-1]
			if name == "SortInt32" {
				first, last = first^1<<31, last^1<<31
			}
			values := uint64(last) - uint64(first) + 1
			auto := name == "CountingSortAuto" || name == "OccurrenceSortAuto"
			if values > sorts.MaxBins && auto {
				faults = append(faults, fault{is: sorts.ErrBadRange})
			}
			// Sort, SortUnique and SortInt32 radix sort keys too wide
			// for a counting sort, at a cost that does not grow with the
			// range, and the block sort sorts few keys whatever their span.
			costly = c.blockSorted(name) || values > fuzzCheapSpan && (auto || values <= sorts.MaxBins)
		}
	case "KeyRange":
		if len(sorted) > 0 {
			want = []uint32{sorted[0], sorted[len(sorted)-1]}
		}
	case "Histogram":
		bins := len(c.keys) + c.outExtra
		want = make([]uint32, max(bins, 0))
		switch {
		case uint64(c.lo)+uint64(bins) > 1<<32:
			faults = append(faults, fault{is: sorts.ErrBadRange})
		case !inRange(c.lo, uint64(c.lo)+uint64(bins)) || bins == 0 && len(c.keys) > 0:
			faults = append(faults, fault{is: sorts.ErrKeyOutOfRange})
		default:
			for _, k := range c.keys {
				want[k-c.lo]++
			}
		}
	case "Scan", "ScanExclusive":
		var run uint32
		if name == "ScanExclusive" {
			want = append(want, 0)
		}
		for _, k := range c.keys {
			run += k
			want = append(want, run)
		}
	}
	return want, faults, costly
}
