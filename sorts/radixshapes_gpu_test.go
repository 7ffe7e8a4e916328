package sorts_test

import (
	"cmp"
	"flag"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

var radixShapes = flag.Bool("radixshapes", false,
	"time RadixSort of 2^25 uint32 keys on the GPU with each block shape of TestGPURadixShapes")

// radixShapeCandidates are the pass shapes TestGPURadixShapes times:
// threads, keys per thread, digit bits, look-back window. The first is the
// default; CUB's Onesweep takes 384 threads of 20 keys for 8-bit digits on
// this GPU.
var radixShapeCandidates = [][5]int{
	{512, 16, 8, 4, 2}, {384, 20, 8, 4, 2}, {512, 20, 8, 4, 2}, {512, 24, 8, 4, 2}, {512, 18, 8, 4, 2},
	{512, 16, 8, 2, 2}, {640, 16, 8, 4, 2}, {768, 12, 8, 4, 2}, {768, 16, 8, 4, 2}, {1024, 8, 8, 4, 2},
	{1024, 12, 8, 4, 1}, {256, 16, 8, 4, 3},
}

// radixPairsShapeCandidates are the shapes TestGPURadixShapes times for
// pairs of uint32 keys and values at 2^25 keys: a pass with values holds
// three tile-sized arrays in shared memory, so that smaller tiles let more
// blocks share a multiprocessor.
var radixPairsShapeCandidates = [][5]int{
	{384, 20, 8, 4, 2}, {512, 16, 8, 4, 2}, {512, 20, 8, 4, 2}, {448, 16, 8, 4, 2}, {640, 16, 8, 4, 2},
	{768, 12, 8, 4, 2}, {512, 12, 8, 4, 2},
}

// radixWideShapeCandidates are the shapes TestGPURadixShapes times for
// uint64 keys at 2^25 keys.
var radixWideShapeCandidates = [][5]int{
	{384, 12, 8, 4, 2}, {384, 14, 8, 4, 2}, {384, 16, 8, 4, 2}, {512, 12, 8, 4, 2}, {512, 10, 8, 4, 2},
	{256, 16, 8, 4, 3}, {448, 12, 8, 4, 2}, {640, 10, 8, 4, 2}, {512, 16, 8, 4, 2},
}

// radixSmallShapeCandidates are the shapes TestGPURadixShapes times at
// 2^16, 2^17, 2^18 and 2^20 keys, where a pass has few tiles of the default shape
// (16 at 2^16 keys) and smaller tiles give the GPU more blocks.
var radixSmallShapeCandidates = [][5]int{
	{512, 8, 8, 0, 2}, {512, 8, 8, 4, 2}, {512, 16, 8, 4, 2}, {256, 16, 8, 4, 3}, {512, 4, 8, 0, 2},
	{256, 8, 8, 0, 0}, {384, 8, 8, 0, 2}, {256, 8, 8, 0, 4},
}

// shapeOf returns the radix shape of a candidate: threads, keys per
// thread, digit bits, look-back window, blocks per multiprocessor.
func shapeOf(c [5]int) kernels.RadixShape {
	return kernels.RadixShape{Threads: c[0], PerThread: c[1], Bits: c[2], Window: c[3], MinBlocks: c[4]}
}

// TestGPURadixShapes times, on the GPU and only with -radixshapes, the
// radix sort of fresh random uint32 keys over their 32 bits with each of
// radixShapeCandidates at 2^25 keys and of radixSmallShapeCandidates at
// 2^16, 2^17, 2^18 and 2^20 keys, and SortPairs of 2^25 keys with uint32
// values with each of radixPairsShapeCandidates, each result first checked
// against Go. It logs one line per size and shape, "radix|pairs <n> keys
// shape <threads>x<keys>/<bits>/window<w>/blocks<b> median_ms <ms>"; it asserts
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
		shapes [][5]int
	}{{1 << 16, radixSmallShapeCandidates}, {1 << 17, radixSmallShapeCandidates}, {1 << 18, radixSmallShapeCandidates},
		{1 << 20, radixSmallShapeCandidates}, {1 << 25, radixShapeCandidates}} {
		keys := make([]uint32, size.n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		timeRadixShapes(t, g, s, tm, keys, size.shapes)
		if size.n == 1<<25 {
			timePairsShapes(t, g, s, tm, keys, radixPairsShapeCandidates)
			wide := make([]uint64, size.n)
			for i := range wide {
				wide[i] = r.Uint64()
			}
			timeRadixShapes(t, g, s, tm, wide, radixWideShapeCandidates)
		}
	}
}

// timePairsShapes checks and times SortPairs of keys with their positions
// as values with each of shapes.
func timePairsShapes(t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, keys []uint32, shapes [][5]int) {
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
			t.Fatalf("pairs, shape %v: the values are not those of a stable sort by key", c)
		}
		t.Logf("pairs %d keys shape %dx%d/%d/window%d/blocks%d median_ms %.4f", len(keys), c[0], c[1], c[2], c[3], c[4], tm.median(t, run))
	}
}

// timeRadixShapes checks and times RadixSort of keys with each of shapes.
func timeRadixShapes[K uint32 | uint64](t *testing.T, g runtime.Device, s *sorts.Sorter, tm timer, keys []K, shapes [][5]int) {
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
	for _, c := range shapes {
		s.SetRadixShape(shapeOf(c))
		run := func() error { return sorts.RadixSort(s, out, in) }
		if err := out.Fill(^K(0)); err != nil {
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
		t.Logf("radix %d keys of %d bits shape %dx%d/%d/window%d/blocks%d median_ms %.4f", len(keys), 8*unsafe.Sizeof(K(0)),
			c[0], c[1], c[2], c[3], c[4], tm.median(t, run))
	}
}
