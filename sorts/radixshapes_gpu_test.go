package sorts_test

import (
	"flag"
	"math/rand/v2"
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
	{256, 16, 8, 0}, {256, 16, 8, 2}, {256, 16, 8, 4}, {256, 16, 8, 8}, {256, 16, 8, 16},
	{256, 8, 8, 0}, {256, 24, 8, 0}, {256, 32, 8, 0}, {128, 32, 8, 0}, {384, 12, 8, 0}, {384, 16, 8, 0},
	{384, 20, 8, 0}, {384, 20, 8, 8}, {512, 8, 8, 0}, {512, 12, 8, 0}, {512, 16, 8, 0}, {256, 16, 7, 0},
	{256, 16, 6, 0},
}

// TestGPURadixShapes times, on the GPU and only with -radixshapes, the
// radix sort of 2^25 fresh random uint32 keys over their 32 bits with each
// of radixShapeCandidates, each result first checked against slices.Sort.
// It logs one line per shape, "radix shape <threads>x<keys>/<bits>/window<w>
// median_ms <ms>"; it asserts nothing of the times.
func TestGPURadixShapes(t *testing.T) {
	if !*radixShapes {
		t.Skip("times the radix sort's block shapes only with -radixshapes")
	}
	g := openGPU(t)
	const n = 1 << 25
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 23))
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = r.Uint32()
	}
	in, err := runtime.FromSlice(g, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tm := newTimer(t, g)
	for _, c := range radixShapeCandidates {
		s.SetRadixShape(c[0], c[1], c[2], c[3])
		run := func() error { return sorts.RadixSort(s, out, in) }
		if err := out.Fill(0xFFFFFFFF); err != nil {
			t.Fatal(err)
		}
		if err := run(); err != nil {
			t.Fatalf("shape %v: %v", c, err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkSorted("RadixSort", got, keys); msg != "" {
			t.Fatalf("shape %v: %s", c, msg)
		}
		t.Logf("radix shape %dx%d/%d/window%d median_ms %.4f", c[0], c[1], c[2], c[3], tm.median(t, run))
	}
}
