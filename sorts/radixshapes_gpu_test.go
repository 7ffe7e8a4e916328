package sorts_test

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

var radixShapes = flag.Bool("radixshapes", false,
	"time RadixSort of 2^25 uint32 keys on the GPU with each block shape of TestGPURadixShapes")

// radixShapeCandidates are the pass shapes TestGPURadixShapes times:
// threads, keys per thread, digit bits, look-back window, blocks per
// multiprocessor (kernels.RadixShapeFor's table says which won). CUB's
// Onesweep takes 384 threads of 20 keys for 8-bit digits on this GPU.
var radixShapeCandidates = [][5]int{
	{512, 16, 8, 4, 2}, {384, 20, 8, 4, 2}, {512, 20, 8, 4, 2}, {512, 24, 8, 4, 2}, {512, 18, 8, 4, 2},
	{512, 16, 8, 2, 2}, {640, 16, 8, 4, 2}, {768, 12, 8, 4, 2}, {768, 16, 8, 4, 2}, {1024, 8, 8, 4, 2},
	{1024, 12, 8, 4, 1}, {256, 16, 8, 4, 3}, {512, 17, 8, 4, 2}, {512, 19, 8, 4, 2}, {384, 19, 8, 4, 2},
	{448, 17, 8, 4, 2}, {448, 19, 8, 4, 2}, {384, 21, 8, 4, 2}, {512, 15, 8, 4, 2}, {384, 19, 8, 4, 3},
	{384, 18, 8, 4, 3}, {384, 16, 8, 4, 3}, {320, 19, 8, 4, 3}, {256, 19, 8, 4, 4}, {384, 23, 8, 4, 3},
	{384, 25, 8, 4, 3}, {320, 28, 8, 4, 3},
}

// radixPairsShapeCandidates are the shapes TestGPURadixShapes times for
// pairs of uint32 keys and values at 2^25 keys: a pass with values holds
// three tile-sized arrays in shared memory, so that smaller tiles let more
// blocks share a multiprocessor.
var radixPairsShapeCandidates = [][5]int{
	{512, 18, 8, 4, 2}, {384, 20, 8, 4, 2}, {384, 22, 8, 4, 2}, {512, 16, 8, 4, 2}, {512, 20, 8, 4, 2},
	{448, 16, 8, 4, 2}, {448, 18, 8, 4, 2}, {640, 16, 8, 4, 2}, {768, 12, 8, 4, 2}, {512, 12, 8, 4, 2},
	{512, 17, 8, 4, 2}, {512, 19, 8, 4, 2}, {384, 19, 8, 4, 2}, {384, 21, 8, 4, 2}, {448, 17, 8, 4, 2},
	{384, 16, 8, 4, 3}, {320, 18, 8, 4, 3},
}

// radixFloatShapeCandidates are the shapes TestGPURadixShapes times for
// float32 keys at 2^25 keys: their order-preserving transform at each
// load and store takes registers of the uint32 keys' shape.
var radixFloatShapeCandidates = [][5]int{
	{512, 18, 8, 4, 2}, {512, 16, 8, 4, 2}, {512, 14, 8, 4, 2}, {384, 20, 8, 4, 2}, {384, 18, 8, 4, 2},
	{512, 17, 8, 4, 2}, {512, 19, 8, 4, 2}, {384, 19, 8, 4, 2}, {448, 17, 8, 4, 2}, {384, 19, 8, 4, 3},
	{384, 16, 8, 4, 3}, {384, 23, 8, 4, 3}, {384, 25, 8, 4, 3},
}

// radixWideShapeCandidates are the shapes TestGPURadixShapes times for
// uint64 keys at 2^25 keys.
var radixWideShapeCandidates = [][5]int{
	{448, 14, 8, 4, 2}, {384, 12, 8, 4, 2}, {384, 14, 8, 4, 2}, {384, 16, 8, 4, 2}, {512, 12, 8, 4, 2}, {512, 10, 8, 4, 2},
	{256, 16, 8, 4, 3}, {448, 12, 8, 4, 2}, {448, 13, 8, 4, 2}, {640, 10, 8, 4, 2}, {512, 16, 8, 4, 2},
	{448, 15, 8, 4, 2}, {384, 15, 8, 4, 2}, {384, 13, 8, 4, 2}, {512, 11, 8, 4, 2}, {384, 17, 8, 4, 2},
	{384, 10, 8, 4, 3}, {320, 12, 8, 4, 3}, {384, 20, 8, 4, 2}, {384, 22, 8, 4, 2}, {320, 24, 8, 4, 2},
}

// radixSmallShapeCandidates are the shapes TestGPURadixShapes times at
// 2^16, 2^17, 2^18 and 2^20 keys, where a pass has few tiles of the default shape
// (16 at 2^16 keys) and smaller tiles give the GPU more blocks. 512×4 is
// not among them: ptxas (CUDA 13.0) fails to allocate its registers
// (C7600).
var radixSmallShapeCandidates = [][5]int{
	{512, 8, 8, 0, 2}, {512, 8, 8, 4, 2}, {512, 16, 8, 4, 2}, {256, 16, 8, 4, 3},
	{256, 8, 8, 0, 0}, {384, 8, 8, 0, 2}, {256, 8, 8, 0, 4}, {256, 8, 8, 4, 4}, {256, 12, 8, 4, 4}, {384, 8, 8, 4, 3},
}

// shapeOf returns the radix shape of a candidate: threads, keys per
// thread, digit bits, look-back window, blocks per multiprocessor.
func shapeOf(c [5]int) kernels.RadixShape {
	return kernels.RadixShape{Threads: c[0], PerThread: c[1], Bits: c[2], Window: c[3], MinBlocks: c[4]}
}

// TestGPURadixShapes times, on the GPU and only with -radixshapes, the
// radix sort of fresh random uint32 keys over their 32 bits with each of
// radixShapeCandidates at 2^25 keys and of radixSmallShapeCandidates at
// 2^16, 2^17, 2^18 and 2^20 keys, SortPairs of 2^25 keys with uint32
// values with each of radixPairsShapeCandidates, and the radix sort of
// 2^25 uint64 and float32 keys (any bits: NaNs too) with each of
// radixWideShapeCandidates and radixFloatShapeCandidates, each result
// first checked against Go. It logs one line per size and shape,
// "radix|pairs <n> keys [of <type>] shape
// <threads>x<keys>/<bits>/window<w>/blocks<b> median_ms <ms>"; it asserts
// nothing of the times.
func TestGPURadixShapes(t *testing.T) {
	g, r, s, tm := forTiming(t, "the radix sort's block shapes", 23)
	for _, size := range []struct {
		n      int
		shapes [][5]int
	}{{1 << 16, radixSmallShapeCandidates}, {1 << 17, radixSmallShapeCandidates}, {1 << 18, radixSmallShapeCandidates},
		{1 << 20, radixSmallShapeCandidates}, {1 << 25, radixShapeCandidates}} {
		keys := make([]uint32, size.n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		timeRadixShapes(t, g, s, tm, keys, size.shapes)
		if size.n == 1<<25 {
			timePairsShapes[uint32, uint32](t, g, s, tm, keys, radixPairsShapeCandidates)
			wide := make([]uint64, size.n)
			for i := range wide {
				wide[i] = r.Uint64()
			}
			timeRadixShapes(t, g, s, tm, wide, radixWideShapeCandidates)
			floats := make([]float32, size.n)
			for i := range floats {
				floats[i] = math.Float32frombits(r.Uint32())
			}
			timeRadixShapes(t, g, s, tm, floats, radixFloatShapeCandidates)
		}
	}
}

// timePairsShapes checks and times SortPairs of keys with their positions
// (as values of type V) with each of shapes.
func timePairsShapes[K, V uint32 | uint64](t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, keys []K,
	shapes [][5]int) {
	values := make([]V, len(keys))
	for i := range values {
		values[i] = V(i)
	}
	want := slices.Clone(values)
	slices.SortStableFunc(want, func(a, b V) int { return cmp.Compare(keys[a], keys[b]) })
	// The outputs start as copies of the inputs: their contents before a sort do not matter.
	in, out := fromSlice(t, g, keys), fromSlice(t, g, keys)
	vin, vout := fromSlice(t, g, values), fromSlice(t, g, values)
	for _, c := range shapes {
		s.SetRadixShape(shapeOf(c))
		run := func() error { return sorts.SortPairs(s, out, vout, in, vin) }
		if err := run(); err != nil {
			t.Fatalf("pairs, shape %v: %v", c, err)
		}
		got, err := vout.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("pairs of %T keys and %T values, shape %v: the values are not those of a stable sort by key",
				keys[0], values[0], c)
		}
		t.Logf("pairs %d keys of %T with %T values shape %dx%d/%d/window%d/blocks%d median_ms %.4f", len(keys), keys[0],
			values[0], c[0], c[1], c[2], c[3], c[4], tm.median(t, run))
	}
}

// radixWidePairsShapeCandidates are the shapes TestGPURadixPairsShapes
// times for pairs with a 64-bit key or value (or both) at 2^25 keys.
var radixWidePairsShapeCandidates = [][5]int{
	{512, 8, 8, 4, 2}, {512, 10, 8, 4, 2}, {512, 12, 8, 4, 2}, {384, 12, 8, 4, 2}, {384, 14, 8, 4, 2},
	{256, 16, 8, 4, 3}, {448, 10, 8, 4, 2}, {512, 6, 8, 4, 2}, {384, 11, 8, 4, 2}, {384, 13, 8, 4, 2},
	{448, 11, 8, 4, 2}, {320, 14, 8, 4, 2}, {384, 15, 8, 4, 2}, {512, 11, 8, 4, 2}, {320, 10, 8, 4, 3},
	{256, 12, 8, 4, 4}, {384, 17, 8, 4, 2}, {384, 19, 8, 4, 2}, {320, 20, 8, 4, 2}, {384, 20, 8, 4, 2}, {384, 22, 8, 4, 2},
}

// TestGPURadixPairsShapes times, on the GPU and only with -radixshapes,
// SortPairs of 2^25 fresh random keys with their positions as values, for
// uint64 keys with uint32 values, uint32 keys with uint64 values and
// uint64 keys with uint64 values, with each of
// radixWidePairsShapeCandidates, each result first checked against Go's
// stable sort. It logs a line per shape as TestGPURadixShapes does and
// asserts nothing of the times.
func TestGPURadixPairsShapes(t *testing.T) {
	g, r, s, tm := forTiming(t, "the radix sort's shapes for pairs with 64-bit keys or values", 31)
	const n = 1 << 25
	narrow, wide := make([]uint32, n), make([]uint64, n)
	for i := range n {
		narrow[i], wide[i] = r.Uint32(), r.Uint64()
	}
	timePairsShapes[uint64, uint32](t, g, s, tm, wide, radixWidePairsShapeCandidates)
	timePairsShapes[uint32, uint64](t, g, s, tm, narrow, radixWidePairsShapeCandidates)
	timePairsShapes[uint64, uint64](t, g, s, tm, wide, radixWidePairsShapeCandidates)
}

// timeRadixShapes checks and times RadixSort of keys with each of shapes.
func timeRadixShapes[K sorts.Key](t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, keys []K, shapes [][5]int) {
	in, err := runtime.FromSlice(g, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[K](g, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	want := sortedRef(keys, false)
	fill := want[len(want)-1] // what out holds before each sort: not the smallest key
	for _, c := range shapes {
		s.SetRadixShape(shapeOf(c))
		run := func() error { return sorts.RadixSort(s, out, in) }
		if err := out.Fill(fill); err != nil {
			t.Fatal(err)
		}
		if err := run(); err != nil {
			t.Fatalf("%d keys, shape %v: %v", len(keys), c, err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if msg := sameBits(fmt.Sprintf("RadixSort of %d %T keys, shape %v", len(keys), fill, c), got, want); msg != "" {
			t.Fatal(msg)
		}
		t.Logf("radix %d keys of %T shape %dx%d/%d/window%d/blocks%d median_ms %.4f", len(keys), fill,
			c[0], c[1], c[2], c[3], c[4], tm.median(t, run))
	}
}

// blockShapeCandidates are the block sort shapes TestGPURadixBlockShapes
// times: threads, keys per thread and digit bits, ranked by votes, and
// ranked by counters, of up to arrays.MaxCountedBits bits (CUB's
// single-tile sort takes 256 threads of 19 keys, 6-bit digits and
// counters, two to a word).
var blockShapeCandidates = func() []kernels.RadixShape {
	var shapes []kernels.RadixShape
	for _, c := range [][3]int{{128, 8, 8}, {128, 8, 6}, {256, 8, 8}, {256, 8, 6}, {256, 8, 5}, {128, 16, 8},
		{128, 16, 6}, {256, 16, 8}, {256, 16, 6}, {256, 19, 6}, {512, 8, 8}, {512, 8, 6}, {512, 16, 8}, {512, 16, 6},
		{1024, 8, 8}, {1024, 8, 6}, {1024, 16, 8}, {1024, 16, 6}, {512, 32, 6}} {
		shapes = append(shapes, kernels.RadixShape{Threads: c[0], PerThread: c[1], Bits: c[2]})
	}
	for _, c := range [][3]int{{128, 8, 4}, {128, 8, 5}, {256, 8, 4}, {256, 8, 5}, {128, 16, 4}, {128, 16, 5},
		{256, 16, 4}, {256, 16, 5}, {256, 19, 5}, {256, 32, 5}, {512, 8, 4}, {512, 8, 5}, {512, 16, 4}, {512, 16, 5},
		{1024, 8, 5}} {
		shapes = append(shapes, kernels.RadixShape{Threads: c[0], PerThread: c[1], Bits: c[2], Rank: kernels.RankByCounters})
	}
	return shapes
}()

// TestGPURadixBlockShapes times, on the GPU and only with -radixshapes,
// RadixSort of fresh random uint32 and uint64 keys over all their bits and
// SortPairs of uint32 keys with uint32 values, at 2^10 to 2^15 keys, in
// one block of each of blockShapeCandidates whose tile takes them (and
// is at most 4 times their number), by the passes and, up to
// kernels.RankSortMaxKeys keys, by the rank sort in blocks of 2 to 32
// warps, each result first checked against Go. It logs one line per size
// and shape, "radix|pairs <n> keys of <b> bits block|passes|rank
// <threads>x<keys>/<bits> rank <r> median_ms <ms>" (r 0 by votes, 1 by
// counters; a rank sort's threads are those of its blocks); it asserts
// nothing of the times.
func TestGPURadixBlockShapes(t *testing.T) {
	g, r, s, tm := forTiming(t, "the block sort's shapes", 29)
	for n := 1 << 10; n <= 1<<15; n *= 2 {
		keys := make([]uint32, n)
		wide := make([]uint64, n)
		for i := range keys {
			keys[i], wide[i] = r.Uint32(), r.Uint64()
		}
		timeBlockShapes(t, g, s, tm, keys, false)
		timeBlockShapes(t, g, s, tm, keys, true)
		timeBlockShapes(t, g, s, tm, wide, false)
	}
}

// timeBlockShapes checks and times RadixSort of keys (SortPairs with their
// positions as values when pairs) in one block of each candidate shape
// that takes them, and by the passes.
func timeBlockShapes[K uint32 | uint64](t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, keys []K, pairs bool) {
	n := len(keys)
	values := make([]uint32, n)
	for i := range values {
		values[i] = uint32(i)
	}
	want := slices.Clone(values)
	slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
	in, err := runtime.FromSlice(g, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	vin, err := runtime.FromSlice(g, values)
	if err != nil {
		t.Fatal(err)
	}
	defer vin.Free()
	out, err := runtime.Alloc[K](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	vout, err := runtime.Alloc[uint32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer vout.Free()
	what, run := "radix", func() error { return sorts.RadixSort(s, out, in) }
	if pairs {
		what, run = "pairs", func() error { return sorts.SortPairs(s, out, vout, in, vin) }
	}
	var shapes []kernels.RadixShape
	for _, c := range blockShapeCandidates {
		if c.Tile() >= n && c.Tile() <= 4*n {
			shapes = append(shapes, c)
		}
	}
	defer s.SetBlockShape(kernels.RadixShape{})
	defer s.SetRadixShape(kernels.RadixShape{})
	defer s.SetRankSortWarps(0)
	warps := []int{2, 4, 8, 16, 32}
	if n > kernels.RankSortMaxKeys {
		warps = nil
	}
	for i := range len(shapes) + 1 + len(warps) {
		how, shape := "block", kernels.RadixShapeFor(int(unsafe.Sizeof(K(0))), 4, n)
		s.SetRankSortWarps(-1)
		switch {
		case i < len(shapes):
			shape = shapes[i]
			s.SetBlockShape(shape)
		case i == len(shapes):
			how = "passes"
			s.SetBlockShape(kernels.RadixShape{})
			s.SetRadixShape(shape)
		default:
			how, shape = "rank", kernels.RadixShape{Threads: 32 * warps[i-len(shapes)-1]}
			s.SetBlockShape(kernels.RadixShape{})
			s.SetRadixShape(kernels.RadixShape{})
			s.SetRankSortWarps(warps[i-len(shapes)-1])
		}
		if err := errors.Join(out.Fill(^K(0)), vout.Fill(0), run()); err != nil {
			t.Errorf("%s of %d keys, %s %+v: %v", what, n, how, shape, err)
			continue
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkSorted(what, got, keys); msg != "" {
			t.Fatalf("%s %+v: %s", how, shape, msg)
		}
		if gotValues, err := vout.ToSlice(); err != nil || pairs && !slices.Equal(gotValues, want) {
			t.Fatalf("%s of %d keys, %s %+v: the values are not those of a stable sort by key (%v)", what, n, how, shape, err)
		}
		t.Logf("%s %d keys of %d bits %s %dx%d/%d rank %d median_ms %.4f", what, n, 8*unsafe.Sizeof(K(0)), how, shape.Threads,
			shape.PerThread, shape.Bits, shape.Rank, tm.median(t, run))
	}
}

// TestGPURankOrBlockSort times, on the GPU and only with -radixshapes, the
// rank sort (in blocks of 16 and of 32 warps) and the one-block radix
// sort (its default shape and digits, its threads with 8-bit digits, and
// each of rankOrBlockShapes that takes the keys in at most four times
// their number, with its default digits) of fresh random uint32 and
// uint64 keys of 2^10 to 2^13 keys, told bits [0, b) for b of one to
// eight 8-bit digits, each result first checked against Go: the rank
// sort's time does not depend on b, the block sort's grows with its
// passes. It logs one line per size, key, bits and sort,
// "rank<warps>|block[/8]|<threads>x<keys> <n> keys of <type> bits <b>
// median_ms <ms>"; it asserts nothing of the times.
func TestGPURankOrBlockSort(t *testing.T) {
	g, r, s, tm := forTiming(t, "the rank and the block sort", 31)
	defer s.SetRankSortWarps(0)
	for n := 1 << 10; n <= kernels.RankSortMaxKeys; n *= 2 {
		for _, bits := range []int{4, 5, 6, 8, 10, 12, 16, 20, 24, 32} {
			timeRankOrBlock(t, g, s, tm, r, n, bits, func(r *rand.Rand) uint32 { return r.Uint32() })
		}
		for _, bits := range []int{8, 16, 32, 48, 64} {
			timeRankOrBlock(t, g, s, tm, r, n, bits, func(r *rand.Rand) uint64 { return r.Uint64() })
		}
	}
}

// timeRankOrBlock checks and times RadixSort of n keys drawn by key, cut
// to their low bits bits, told those bits, by the rank sort and by the
// block sort.
func timeRankOrBlock[K uint32 | uint64](t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, r *rand.Rand, n, bits int,
	key func(*rand.Rand) K) {
	keys := make([]K, n)
	for i := range keys {
		keys[i] = key(r) >> (8*unsafe.Sizeof(K(0)) - uintptr(bits))
	}
	in, err := runtime.FromSlice(g, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[K](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	run := func() error { return sorts.RadixSort(s, out, in, sorts.Bits(0, bits)) }
	block, _ := kernels.RadixBlockShapeFor(int(unsafe.Sizeof(K(0))), 0, n, bits)
	defer s.SetBlockShape(kernels.RadixShape{})
	type config struct {
		how         string
		rank, digit int
		shape       [2]int // threads and keys per thread, or none
	}
	configs := []config{{"rank16", 16, 0, [2]int{}}, {"rank32", 32, 0, [2]int{}}, {"block", -1, 0, [2]int{}},
		{"block/8", -1, 8, [2]int{block.Threads, block.PerThread}}}
	for _, c := range rankOrBlockShapes {
		if tile := c[0] * c[1]; tile >= n && tile <= 4*n {
			configs = append(configs, config{fmt.Sprintf("%dx%d", c[0], c[1]), -1, kernels.BlockDigitBits(bits), c})
		}
	}
	for _, c := range configs {
		s.SetRankSortWarps(c.rank)
		shape := kernels.RadixShape{}
		if c.digit > 0 {
			shape = kernels.RadixShape{Threads: c.shape[0], PerThread: c.shape[1], Bits: c.digit}
		}
		s.SetBlockShape(shape)
		if err := errors.Join(out.Fill(^K(0)), run()); err != nil {
			if c.shape != [2]int{} && c.shape != [2]int{block.Threads, block.PerThread} {
				t.Logf("%s %d keys of %T bits %d not run: %v", c.how, n, K(0), bits, err) // a shape too large for the device
				continue
			}
			t.Fatalf("%d keys of %d bits, %s: %v", n, bits, c.how, err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkSorted("RadixSort", got, keys); msg != "" {
			t.Fatalf("%s: %s", c.how, msg)
		}
		t.Logf("%s %d keys of %T bits %d median_ms %.4f", c.how, n, K(0), bits, tm.median(t, run))
	}
}

// rankOrBlockShapes are the block sort's shapes TestGPURankOrBlockSort
// times beside the default: threads and keys per thread.
var rankOrBlockShapes = [][2]int{{128, 8}, {256, 8}, {128, 16}, {256, 16}, {512, 8}, {256, 32}, {512, 16}, {1024, 8}}

// TestGPUSortLatency (-radixshapes) times SortKeys of fresh random uint32
// keys told the range [0, 2^b) three ways, after checking a result against
// Go: one call between two events (as the benchmark times it), 64 calls
// back to back between two events (the GPU's time a call when the host
// keeps ahead of it), and the host's wall-clock time of one call, which
// returns once its launches are queued. Where the first exceeds the second
// by about the third, the host's work, not the GPU's, sets the one-call
// time. It logs one line per size and b, and asserts nothing of the times.
func TestGPUSortLatency(t *testing.T) {
	g, r, s, tm := forTiming(t, "sorts' latency", 37)
	for _, n := range []int{1 << 10, 1 << 12, 1 << 16, 1 << 20} {
		for _, bits := range []int{4, 8, 12, 32} {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = r.Uint32() >> (32 - bits)
			}
			in, err := runtime.FromSlice(g, keys)
			if err != nil {
				t.Fatal(err)
			}
			out, err := runtime.Alloc[uint32](g, n)
			if err != nil {
				t.Fatal(err)
			}
			last := uint32(1<<bits - 1)
			run := func() error { return s.SortKeys(out, in, 0, last) }
			if err := errors.Join(out.Fill(^uint32(0)), run()); err != nil {
				t.Fatal(err)
			}
			got, err := out.ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			if msg := checkSorted("SortKeys", got, keys); msg != "" {
				t.Fatal(msg)
			}
			one := tm.median(t, run)
			const calls = 64
			many := tm.median(t, func() error {
				for range calls {
					if err := run(); err != nil {
						return err
					}
				}
				return nil
			}) / calls
			host := make([]time.Duration, 15)
			for i := range host {
				if err := g.Synchronize(); err != nil {
					t.Fatal(err)
				}
				began := time.Now()
				if err := run(); err != nil {
					t.Fatal(err)
				}
				host[i] = time.Since(began)
			}
			slices.Sort(host)
			t.Logf("latency %d keys bits %d one_ms %.4f back_to_back_ms %.4f host_ms %.4f",
				n, bits, one, many, host[7].Seconds()*1e3)
			if err := errors.Join(in.Free(), out.Free()); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// forTiming skips the test unless -radixshapes is given (saying it times
// what), and returns the GPU, a generator of fresh random keys (its seed
// logged; stream tells the tests apart), a Sorter on the GPU closed when
// the test ends, and a timer.
func forTiming(t *testing.T, what string, stream uint64) (*runtime.GPU, *rand.Rand, *sorts.Sorter, timer) {
	t.Helper()
	if !*radixShapes {
		t.Skipf("times %s only with -radixshapes", what)
	}
	g := gputest.Open(t)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return g, rand.New(rand.NewPCG(seed, stream)), s, newTimer(t, g)
}
