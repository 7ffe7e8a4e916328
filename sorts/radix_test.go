package sorts_test

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// smallTiles makes a Sorter on a CPU evaluator, returned with it, whose radix passes run
// tiles of 128 keys (64 threads of 2), so that a few thousand keys make
// many tiles.
func smallTiles(t *testing.T) (*sorts.Sorter, runtime.Device) {
	t.Helper()
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.SetRadixShape(kernels.RadixShape{Threads: 64, PerThread: 2, Bits: 8, Window: 3})
	return s, dev
}

// radixSorted runs RadixSort on a copy of keys on s's device dev and
// returns the result.
func radixSorted[K sorts.Key](s *sorts.Sorter, dev runtime.Device, keys []K, opts ...sorts.RadixOption) ([]K, error) {
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.Alloc[K](dev, len(keys))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	if err := sorts.RadixSort(s, out, in, opts...); err != nil {
		return nil, err
	}
	return out.ToSlice()
}

// checkSorted returns what differs between got and keys sorted by
// slices.Sort, or "".
func checkSorted[K uint32 | uint64](what string, got, keys []K) string {
	want := slices.Clone(keys)
	slices.Sort(want)
	if len(got) != len(want) {
		return fmt.Sprintf("%s of %d keys: %d results", what, len(keys), len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Sprintf("%s of %d keys: [%d] = %d, want %d", what, len(keys), i, got[i], want[i])
		}
	}
	return ""
}

// checkRadixSort runs RadixSort of keys on s (on device dev) and reports
// an error or a result that differs from slices.Sort's, named by what.
func checkRadixSort[K uint32 | uint64](t *testing.T, s *sorts.Sorter, dev runtime.Device, what string, keys []K,
	opts ...sorts.RadixOption) {
	t.Helper()
	got, err := radixSorted(s, dev, keys, opts...)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if msg := checkSorted(what, got, keys); msg != "" {
		t.Error(msg)
	}
}

// radixLengths are the lengths every radix test sorts: empty, one key, a
// tile of the small shape and one more or less, several tiles and a
// partial last one.
var radixLengths = []int{0, 1, 2, 127, 128, 129, 255, 257, 1000}

// TestRadixSortUint32 checks RadixSort of uint32 keys against
// slices.Sort: full 32-bit keys, few distinct keys, keys all equal, and
// the lengths of radixLengths, in tiles of 128 keys; then random lengths
// and distributions by a property.
func TestRadixSortUint32(t *testing.T) {
	s, dev := smallTiles(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 11))
	for _, n := range radixLengths {
		for _, spread := range []uint32{0, 3, 1 << 16, 1<<32 - 1} {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = r.Uint32()
				if spread < 1<<32-1 {
					keys[i] = r.Uint32N(spread+1) + (1<<32-1-spread)/2
				}
			}
			got, err := radixSorted(s, dev, keys)
			if err != nil {
				t.Fatal(err)
			}
			if msg := checkSorted(fmt.Sprintf("RadixSort (keys within %d)", spread), got, keys); msg != "" {
				t.Error(msg)
			}
		}
	}
	props := gopter.NewProperties(proptest.Parameters(t, 10))
	props.Property("RadixSort equals slices.Sort", prop.ForAll(func(n int, shift uint, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 12))
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32() >> shift
		}
		got, err := radixSorted(s, dev, keys)
		if err != nil {
			return err.Error()
		}
		return checkSorted("RadixSort", got, keys)
	}, gen.IntRange(0, 1500), gen.UIntRange(0, 31), gen.UInt64()))
	props.TestingRun(t)
}

// TestRadixSortDefaultTile sorts keys of two tiles and a part of each
// default shape of 32-bit keys (that of large sorts, 4096 keys per tile,
// and that of sorts up to 2^16 keys), and keys on either side of the
// count where the default shape changes.
func TestRadixSortDefaultTile(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 13))
	sortRandom := func(n int) {
		t.Helper()
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		got, err := radixSorted(s, dev, keys)
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkSorted("RadixSort", got, keys); msg != "" {
			t.Error(msg)
		}
	}
	for _, n := range []int{1 << 16, 1<<30 + 1} {
		shape := kernels.RadixShapeFor(4, 0, n)
		s.SetRadixShape(shape)
		sortRandom(2*shape.Tile() + 100)
	}
	s.SetRadixShape(kernels.RadixShape{})
	if testing.Short() {
		return
	}
	for _, n := range []int{1 << 16, 1<<16 + 1} {
		sortRandom(n)
	}
}

// TestRadixSortInPlace sorts keys into their own buffer, for an even and
// an odd number of passes (the Bits option), and checks that the bits
// outside the range keep their order.
func TestRadixSortInPlace(t *testing.T) {
	s, dev := smallTiles(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 14))
	for _, bits := range [][2]int{{0, 32}, {0, 24}, {4, 12}} {
		keys := make([]uint32, 700)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		buf, err := runtime.FromSlice(dev, keys)
		if err != nil {
			t.Fatal(err)
		}
		if err := sorts.RadixSort(s, buf, buf, sorts.Bits(bits[0], bits[1])); err != nil {
			t.Fatal(err)
		}
		got, err := buf.ToSlice()
		buf.Free()
		if err != nil {
			t.Fatal(err)
		}
		mask := uint32(1<<bits[1]-1) &^ uint32(1<<bits[0]-1)
		if bits[1] == 32 {
			mask = ^uint32(1<<bits[0] - 1)
		}
		want := slices.Clone(keys)
		slices.SortStableFunc(want, func(a, b uint32) int { return int(int64(a&mask) - int64(b&mask)) })
		if !slices.Equal(got, want) {
			t.Errorf("RadixSort in place by bits %v: got %v..., want %v...", bits, got[:8], want[:8])
		}
	}
}

// TestSortAnyRange checks that Sort, SortInt32 and SortUnique sort keys
// spanning more values than a counting sort takes (they used to fail with
// ErrBadRange), by the radix sort.
func TestSortAnyRange(t *testing.T) {
	s, _ := smallTiles(t)
	got, err := s.Sort([]uint32{5, 3, 4294967295, 4})
	if err != nil || !slices.Equal(got, []uint32{3, 4, 5, 4294967295}) {
		t.Errorf("Sort([5 3 4294967295 4]) = %v, %v; want [3 4 5 4294967295]", got, err)
	}
	r := rand.New(rand.NewPCG(rand.Uint64(), 15))
	keys := make([]uint32, 600)
	for i := range keys {
		keys[i] = r.Uint32() | uint32(i%2)<<31
	}
	got, err = s.Sort(keys)
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkSorted("Sort", got, keys); msg != "" {
		t.Error(msg)
	}
	unique, err := s.SortUnique(append(slices.Clone(keys), keys[:100]...))
	want := slices.Compact(slices.Sorted(slices.Values(keys)))
	if err != nil || !slices.Equal(unique, want) {
		t.Errorf("SortUnique of wide keys: %d keys, %v; want %d", len(unique), err, len(want))
	}
	ints := []int32{math.MaxInt32, 0, math.MinInt32, -1, 1 << 30, -5}
	sortedInts, err := s.SortInt32(ints)
	if err != nil || !slices.Equal(sortedInts, []int32{math.MinInt32, -5, -1, 0, 1 << 30, math.MaxInt32}) {
		t.Errorf("SortInt32(%v) = %v, %v", ints, sortedInts, err)
	}
	for _, ints := range [][]int32{{-1, 1<<30 - 1}, {math.MaxInt32, math.MinInt32}} {
		got, err := s.SortInt32(ints)
		if err != nil || !slices.IsSorted(got) || len(got) != 2 {
			t.Errorf("SortInt32(%v) = %v, %v", ints, got, err)
		}
	}
}

// TestRadixSortsInARowShareTheLookBackWords sorts on one Sorter, one after
// another, keys of lengths that grow and shrink, so that each sort's
// look-back reads words that earlier sorts left (with their lower epochs)
// instead of zeroed ones; then, with the epochs about to run out, a sort
// that takes the last ones, one after them and one that would need one
// epoch more than are left: both must zero the words again.
func TestRadixSortsInARowShareTheLookBackWords(t *testing.T) {
	s, dev := smallTiles(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 21))
	sortOnce := func(what string, n int) {
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		checkRadixSort(t, s, dev, what, keys)
	}
	for _, n := range []int{3000, 700, 129, 2500, 1} {
		sortOnce(fmt.Sprintf("%d keys after others", n), n)
	}
	const passes = 4 // 32-bit keys in 8-bit digits
	s.SetRadixEpoch(arrays.MaxEpoch - passes + 1)
	sortOnce("a sort taking the last epochs", 1500)
	sortOnce("a sort after the last epochs", 2000)
	s.SetRadixEpoch(arrays.MaxEpoch - passes + 2)
	sortOnce("a sort one epoch short", 1800)
}

// TestRadixSortsInARowShareTheirCounts sorts on one Sorter, one after
// another, keys whose sorts take 1 to 8 passes (so that their counts grow
// and shrink, and the halves the counts take change their length), each
// sort counting in the half the sort before it zeroed: uint32 keys over
// all their bits and over a few, and uint64 keys, each result against
// slices.Sort; a sort refused for its bits in between leaves the counts
// as they were.
func TestRadixSortsInARowShareTheirCounts(t *testing.T) {
	s, dev := smallTiles(t)
	seed := proptest.Seed(t)
	r := rand.New(rand.NewPCG(seed, 23))
	narrow := func(what string, n, end int) {
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32() & (1<<end - 1)
		}
		checkRadixSort(t, s, dev, what, keys, sorts.Bits(0, end))
	}
	wide := func(what string, n int) {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = r.Uint64()
		}
		checkRadixSort(t, s, dev, what, keys)
	}
	narrow("32 bits, first", 1500, 32)
	narrow("8 bits after 32", 900, 8)
	wide("64 bits after 8", 1300)
	narrow("32 bits after 64", 700, 32)
	narrow("16 bits after 32", 1100, 16)
	if _, err := radixSorted(s, dev, []uint32{3, 1, 2}, sorts.Bits(0, 33)); err == nil {
		t.Fatal("a sort of bits [0, 33) of uint32 keys: no error")
	}
	narrow("24 bits after an error", 1200, 24)
	wide("64 bits again", 600)
	narrow("32 bits last", 2000, 32)
}

// TestRadixSortAfterAFailedSortZeroesItsCounts fails a sort on a CPU
// device of little memory after its histogram has run (its pass's
// launch is refused), so that the half of the counts it took is left
// dirty; a sort of one pass then takes short halves, and a sort of 8
// passes after it, whose halves are long again on the same scratch, must
// zero them first rather than count in what the failed sort left.
func TestRadixSortAfterAFailedSortZeroesItsCounts(t *testing.T) {
	dev := runtime.CPU(runtime.CPUMemoryLimit(4 << 20))
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.SetRadixShape(kernels.RadixShape{Threads: 64, PerThread: 2, Bits: 8, Window: 3})
	r := rand.New(rand.NewPCG(proptest.Seed(t), 29))
	wide := func(what string) {
		keys := make([]uint64, 1300)
		for i := range keys {
			keys[i] = r.Uint64()
		}
		checkRadixSort(t, s, dev, what, keys)
	}
	wide("64 bits, first")
	big := make([]uint32, 100000)
	for i := range big {
		big[i] = r.Uint32()
	}
	if _, err := radixSorted(s, dev, big); err == nil {
		t.Fatal("a sort of 100000 keys on a CPU device of 4 MiB: no error; the test needs one from a launch")
	}
	keys := make([]uint32, 900)
	for i := range keys {
		keys[i] = r.Uint32() & 0xff
	}
	checkRadixSort(t, s, dev, "8 bits after the failed sort", keys, sorts.Bits(0, 8))
	wide("64 bits after them")
}

// TestArgsortScratchSurvivesARetriedReservation runs Argsort where the
// radix sort's reservation fails while the Sorter holds other scratch, so
// that it frees all of it and tries again: the keys Argsort sorts into
// scratch must be taken again after that, not used freed. The call must
// sort right, or fail wrapping ErrTooLarge.
func TestArgsortScratchSurvivesARetriedReservation(t *testing.T) {
	r := rand.New(rand.NewPCG(proptest.Seed(t), 3))
	keys := make([]uint32, 20000)
	for i := range keys {
		keys[i] = r.Uint32()
	}
	want := make([]uint32, len(keys))
	for i := range want {
		want[i] = uint32(i)
	}
	slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, left := range []int{150_000, 260_000, 400_000, 1_000_000} {
		d := runtime.CPU(runtime.CPUMemoryLimit(64 << 20))
		s, err := sorts.New(d)
		check(err)
		// A counting sort over 2^20 values leaves megabytes of scratch held.
		big, err := runtime.FromSlice(d, []uint32{0, 1<<20 - 1})
		check(err)
		bigOut, err := runtime.Alloc[uint32](d, 2)
		check(err)
		check(s.CountingSort(bigOut, big, 0, 1<<20))
		kb, err := runtime.FromSlice(d, keys)
		check(err)
		pb, err := runtime.Alloc[uint32](d, len(keys))
		check(err)
		free := freeBytes(t, d)
		filler, err := runtime.Alloc[byte](d, int(free)-left)
		check(err)
		err = sorts.Argsort(s, pb, kb)
		switch {
		case err != nil && !errors.Is(err, sorts.ErrTooLarge):
			t.Errorf("%d bytes left: %v, want success or ErrTooLarge", left, err)
		case err == nil:
			got, err := pb.ToSlice()
			check(err)
			if !slices.Equal(got, want) {
				t.Errorf("%d bytes left: the positions are not the keys' stable order", left)
			}
		}
		check(errors.Join(filler.Free(), s.Close()))
	}
}

// TestSliceSortsFreeScratchForTheirCopies sorts slices on a device nearly
// full while the Sorter holds scratch from an earlier sort, which the
// up-front check counts as free: the copies of the keys must find room by
// freeing it, and the call must sort right or fail wrapping ErrTooLarge,
// by SortSlice and by Sorter.Sort.
func TestSliceSortsFreeScratchForTheirCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(proptest.Seed(t), 4))
	keys := make([]uint64, 12000)
	for i := range keys {
		keys[i] = r.Uint64()
	}
	keys32 := make([]uint32, len(keys))
	for i, k := range keys {
		keys32[i] = uint32(k)
	}
	sorts64 := func(s *sorts.Sorter) (bool, error) {
		got, err := sorts.SortSlice(s, keys)
		return slices.Equal(got, slices.Sorted(slices.Values(keys))), err
	}
	sorts32 := func(s *sorts.Sorter) (bool, error) {
		got, err := s.Sort(keys32)
		return slices.Equal(got, slices.Sorted(slices.Values(keys32))), err
	}
	for name, sortOn := range map[string]func(*sorts.Sorter) (bool, error){"SortSlice": sorts64, "Sort": sorts32} {
		for _, left := range []int{150_000, 300_000} {
			d := runtime.CPU(runtime.CPUMemoryLimit(8 << 20))
			s, err := sorts.New(d)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := sortOn(s); err != nil || !ok {
				t.Fatalf("%s with the device empty: sorted %t, %v", name, ok, err)
			}
			free := freeBytes(t, d)
			filler, err := runtime.Alloc[byte](d, int(free)-left)
			if err != nil {
				t.Fatal(err)
			}
			ok, err := sortOn(s)
			switch {
			case err != nil && !errors.Is(err, sorts.ErrTooLarge):
				t.Errorf("%s with %d bytes left: %v, want success or ErrTooLarge", name, left, err)
			case err == nil && !ok:
				t.Errorf("%s with %d bytes left: not sorted", name, left)
			}
			if err := errors.Join(filler.Free(), s.Close()); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// freeBytes returns the free memory of the CPU device d.
func freeBytes(t *testing.T, d runtime.Device) uint64 {
	t.Helper()
	free, _, err := d.(interface {
		MemInfo() (free, total uint64, err error)
	}).MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	return free
}
