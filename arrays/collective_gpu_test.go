package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
)

// freshSeed returns a seed from the clock, logged.
func freshSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	t.Logf("data seed %d", seed)
	return seed
}

// sameOnBoth runs k on the GPU and in the evaluator with in and outputs
// of the given lengths, and reports the first element where they differ.
func sameOnBoth[T dsl.Number](t *testing.T, gpu runtime.Device, k func() *dsl.Kernel, what string, in []T,
	outs ...int) {
	t.Helper()
	want, err := run(runtime.CPU(), k(), in, outs...)
	if err != nil {
		t.Fatalf("%s on the CPU: %v", what, err)
	}
	got, err := run(gpu, k(), in, outs...)
	if err != nil {
		t.Fatalf("%s on the GPU: %v", what, err)
	}
	for i := range want {
		if d := differ(fmt.Sprintf("output %d", i), got[i], want[i]); d != "" {
			t.Errorf("%s: the GPU differs from the evaluator: %s", what, d)
		}
	}
}

// gpuLengths are the lengths the GPU tests scan: around warps and blocks,
// and random ones up to 2^16.
func gpuLengths(r *rand.Rand) []int {
	ns := []int{1, 31, 32, 33, 255, 256, 257, 1000, 4096}
	for range 6 {
		ns = append(ns, 1+r.IntN(1<<16))
	}
	return ns
}

// gpuCollectives compares the warp collectives, and Scan, ScanExclusive
// and Reduce at both levels, on the GPU with the evaluator for the
// operators ops.
func gpuCollectives[T dsl.Number](t *testing.T, gpu runtime.Device, ops []operator[T], seed uint64) {
	r := rand.New(rand.NewPCG(seed, 2))
	for _, o := range ops {
		// Two block sizes of 32 to 1024 threads per operator: each is a
		// kernel NVRTC compiles, whatever the lengths.
		sizes := [2]int{32 << r.IntN(6), 32 << r.IntN(6)}
		for i, n := range gpuLengths(r) {
			threads := sizes[i%2]
			xs := o.values(r.Uint64(), n)
			name := fmt.Sprintf("%s, %d elements, %d threads", o.name, n, threads)
			for _, warps := range []bool{false, true} {
				sameOnBoth(t, gpu, func() *dsl.Kernel { return warpLaneKernel(o, threads, warps) },
					"WarpScan, WarpScanExclusive, WarpReduce: "+name, xs, n, n, n)
			}
			sameOnBoth(t, gpu, func() *dsl.Kernel { return collectiveKernel(o, threads, atBlock) },
				"Scan, ScanExclusive, Reduce at Block level: "+name, xs, n, n, 1)
			sameOnBoth(t, gpu, func() *dsl.Kernel { return collectiveKernel(o, threads, atWarp) },
				"Scan, ScanExclusive, Reduce at Warp level: "+name, xs, n, n, 1)
		}
	}
}

// TestGPUCollectives runs every collective on the GPU and in the evaluator
// on fresh random data for add, max, min, xor, two operators that are not
// commutative, 64-bit integers and floats, and compares them element by
// element.
func TestGPUCollectives(t *testing.T) {
	gpu := gputest.Open(t)
	seed := freshSeed(t)
	gpuCollectives(t, gpu, u32Ops, seed)
	gpuCollectives(t, gpu, i64Ops, seed)
	gpuCollectives(t, gpu, f32Ops, seed)
}

// TestGPUBlockScanOfTiles compares BlockScan of tiles of many sizes, in as
// many blocks as the input needs (up to 2^18 elements), and in place in
// shared memory, on the GPU with the evaluator and with Go.
func TestGPUBlockScanOfTiles(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 3))
	for _, o := range u32Ops {
		for _, n := range []int{1, 4095, 1 << 18, 1 + r.IntN(1<<18)} {
			xs := o.values(r.Uint64(), n)
			threads, tile := 32<<r.IntN(6), 1+r.IntN(4096)
			tiles := (n + tile - 1) / tile
			for _, inPlace := range []bool{false, true} {
				what := fmt.Sprintf("%s, %d elements, %d threads, tiles of %d, in place %v", o.name, n, threads, tile,
					inPlace)
				sameOnBoth(t, gpu, func() *dsl.Kernel { return tileKernel(o, threads, tile, inPlace) }, what, xs,
					n, n, tiles)
				if msg := checkTiles(gpu, o, threads, tile, inPlace, xs); msg != "" {
					t.Error(msg)
				}
			}
		}
	}
}

// TestGPUSearch compares LowerBound and UpperBound on the GPU with
// sort.Search, on sorted arrays of up to 2^20 values.
func TestGPUSearch(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 4))
	for _, n := range []int{0, 1, 1000, 1 << 20} {
		span := 1 + r.Uint32N(1<<31)
		if msg := checkSearch(gpu, n, r.Uint64(), func(r *rand.Rand) uint32 { return r.Uint32N(span) }); msg != "" {
			t.Error(msg)
		}
		if msg := checkSearch(gpu, n, r.Uint64(), func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }); msg != "" {
			t.Error(msg)
		}
	}
}
