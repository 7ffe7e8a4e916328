package sorts_test

import (
	"cmp"
	"flag"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

var radixShapes = flag.Bool("radixshapes", false,
	"time RadixSort of 2^25 uint32 keys on the GPU with each block shape of TestGPURadixShapes")

// radixShapeCandidates are the pass shapes TestGPURadixShapes times:
// threads, keys per thread, digit bits, look-back window. The first is the
// default; CUB's Onesweep takes 384 threads of 20 keys for 8-bit digits on
// this GPU.
var radixShapeCandidates = [][4]int{
	{256, 16, 8, 4}, {256, 16, 8, 0}, {256, 16, 8, 2}, {256, 16, 8, 8}, {256, 16, 8, 16},
	{256, 8, 8, 0}, {256, 24, 8, 0}, {256, 32, 8, 0}, {128, 32, 8, 0}, {384, 12, 8, 0}, {384, 16, 8, 0},
	{384, 20, 8, 0}, {384, 20, 8, 8}, {512, 8, 8, 0}, {512, 12, 8, 0}, {512, 16, 8, 0}, {256, 16, 7, 0},
	{256, 16, 6, 0},
}

// radixPairsShapeCandidates are the shapes TestGPURadixShapes times for
// pairs of uint32 keys and values at 2^25 keys: a pass with values holds
// three tile-sized arrays in shared memory, so that smaller tiles let more
// blocks share a multiprocessor.
var radixPairsShapeCandidates = [][4]int{
	{256, 16, 8, 4}, {256, 12, 8, 4}, {256, 10, 8, 4}, {256, 8, 8, 4}, {384, 8, 8, 4}, {512, 8, 8, 4}, {512, 6, 8, 4},
	{128, 16, 8, 4},
}

// radixSmallShapeCandidates are the shapes TestGPURadixShapes times at
// 2^16, 2^17, 2^18 and 2^20 keys, where a pass has few tiles of the default shape
// (16 at 2^16 keys) and smaller tiles give the GPU more blocks.
var radixSmallShapeCandidates = [][4]int{
	{256, 16, 8, 0}, {256, 8, 8, 0}, {256, 4, 8, 0}, {128, 16, 8, 0}, {128, 8, 8, 0}, {128, 4, 8, 0},
	{512, 4, 8, 0}, {512, 8, 8, 0}, {64, 16, 8, 0},
}

// TestGPURadixShapes times, on the GPU and only with -radixshapes, the
// radix sort of fresh random uint32 keys over their 32 bits with each of
// radixShapeCandidates at 2^25 keys and of radixSmallShapeCandidates at
// 2^16, 2^17, 2^18 and 2^20 keys, and SortPairs of 2^25 keys with uint32
// values with each of radixPairsShapeCandidates, each result first checked
// against Go. It logs one line per size and shape, "radix|pairs <n> keys
// shape <threads>x<keys>/<bits>/window<w> median_ms <ms>"; it asserts
// nothing of the times.
func TestGPURadixShapes(t *testing.T) {
	if !*radixShapes {
		t.Skip("times the radix sort's block shapes only with -radixshapes")
	}
	g := openGPU(t)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 23))
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tm := newTimer(t, g)
	for _, size := range []struct {
		n      int
		shapes [][4]int
	}{{1 << 16, radixSmallShapeCandidates}, {1 << 17, radixSmallShapeCandidates}, {1 << 18, radixSmallShapeCandidates},
		{1 << 20, radixSmallShapeCandidates}, {1 << 25, radixShapeCandidates}} {
		keys := make([]uint32, size.n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		timeRadixShapes(t, g, s, tm, keys, size.shapes)
		if size.n == 1<<25 {
			timePairsShapes(t, g, s, tm, keys, radixPairsShapeCandidates)
		}
	}
}

// timePairsShapes checks and times SortPairs of keys with their positions
// as values with each of shapes.
func timePairsShapes(t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, keys []uint32, shapes [][4]int) {
	values := make([]uint32, len(keys))
	for i := range values {
		values[i] = uint32(i)
	}
	want := slices.Clone(values)
	slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
	var bufs []interface{ Free() error }
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	buffer := func(xs []uint32) *runtime.Buffer[uint32] {
		b, err := runtime.FromSlice(g, xs)
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, b)
		return b
	}
	in, vin, out, vout := buffer(keys), buffer(values), buffer(make([]uint32, len(keys))), buffer(make([]uint32, len(keys)))
	for _, c := range shapes {
		s.SetRadixShape(c[0], c[1], c[2], c[3])
		run := func() error { return sorts.SortPairs(s, out, vout, in, vin) }
		if err := run(); err != nil {
			t.Fatalf("pairs, shape %v: %v", c, err)
		}
		got, err := vout.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("pairs, shape %v: the values are not those of a stable sort by key", c)
		}
		t.Logf("pairs %d keys shape %dx%d/%d/window%d median_ms %.4f", len(keys), c[0], c[1], c[2], c[3], tm.median(t, run))
	}
}

// timeRadixShapes checks and times RadixSort of keys with each of shapes.
func timeRadixShapes(t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, keys []uint32, shapes [][4]int) {
	in, err := runtime.FromSlice(g, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](g, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	for _, c := range shapes {
		s.SetRadixShape(c[0], c[1], c[2], c[3])
		run := func() error { return sorts.RadixSort(s, out, in) }
		if err := out.Fill(0xFFFFFFFF); err != nil {
			t.Fatal(err)
		}
		if err := run(); err != nil {
			t.Fatalf("%d keys, shape %v: %v", len(keys), c, err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkSorted("RadixSort", got, keys); msg != "" {
			t.Fatalf("%d keys, shape %v: %s", len(keys), c, msg)
		}
		t.Logf("radix %d keys shape %dx%d/%d/window%d median_ms %.4f", len(keys), c[0], c[1], c[2], c[3], tm.median(t, run))
	}
}
