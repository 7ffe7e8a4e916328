package arrays_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestGPUTiledTranspose compares the tiled transpose of MapTiles and
// ComputeTile on the GPU with the evaluator and with Go, element by
// element, on fresh random matrices of shapes that tiles divide and shapes
// they do not, for several tile sizes and block sizes.
func TestGPUTiledTranspose(t *testing.T) {
	gpu, cpu := gputest.Open(t), runtime.CPU()
	seed := freshSeed(t)
	r := rand.New(rand.NewPCG(seed, 5))
	shapes := [][2]int{{1, 1}, {32, 32}, {33, 65}, {1000, 3}, {3, 1000}, {512, 256}}
	for range 3 {
		shapes = append(shapes, [2]int{1 + r.IntN(1024), 1 + r.IntN(1024)})
	}
	tiles := [][3]int{{32, 32, 256}, {16, 8, 128}, {7, 13, 64}, {1 + r.IntN(64), 1 + r.IntN(64), 32 << r.IntN(4)}}
	for _, tile := range tiles {
		th, tw, threads := uint32(tile[0]), uint32(tile[1]), tile[2]
		onGPU, onCPU := load(t, gpu, tiledTransposeKernel(th, tw, threads)), load(t, cpu, tiledTransposeKernel(th, tw, threads))
		for _, shape := range shapes {
			rows, cols := shape[0], shape[1]
			xs := randomInput(rows*cols, r.Uint64())
			what := fmt.Sprintf("%d × %d, tiles of %d × %d, %d threads", rows, cols, tile[0], tile[1], tile[2])
			got, err := runMatrix(t, gpu, onGPU, rows, cols, xs)
			if err != nil {
				t.Fatalf("%s on the GPU: %v", what, err)
			}
			want, err := runMatrix(t, cpu, onCPU, rows, cols, xs)
			if err != nil {
				t.Fatalf("%s on the CPU: %v", what, err)
			}
			if d := differ("GPU against the evaluator", got, want); d != "" {
				t.Errorf("%s: %s", what, d)
			}
			if d := differ("GPU against Go", got, transposeGo(rows, cols, xs)); d != "" {
				t.Errorf("%s: %s", what, d)
			}
		}
	}
}

// TestGPUPairs compares ComputePairs and Unzip of Zip, and a key-value
// sorting network of ComputePairs steps, on the GPU with the evaluator and
// with Go, element by element, on fresh random keys and values.
func TestGPUPairs(t *testing.T) {
	gpu := gputest.Open(t)
	seed := freshSeed(t)
	r := rand.New(rand.NewPCG(seed, 6))
	cpu := runtime.CPU()
	for _, n := range []int{1, 255, 256, 4096, 1 + r.IntN(4096)} {
		threads := 32 << r.IntN(6)
		keys, vals := keyValues(r.Uint64(), n, 1+r.Uint32N(math.MaxUint32))
		var ks [][]uint32 // computed and unzipped keys, on the GPU and then the CPU
		var vs [][]float32
		for _, dev := range []runtime.Device{gpu, cpu} {
			kb, vb := toDevice(t, dev, keys), toDevice(t, dev, vals)
			ck, cv := alloc[uint32](t, dev, n), alloc[float32](t, dev, n)
			uk, uv := alloc[uint32](t, dev, n), alloc[float32](t, dev, n)
			if err := launch(dev, pairsKernel(uint32(n), threads), kb, vb, ck, cv, uk, uv); err != nil {
				t.Fatalf("%d pairs, %d threads, on %s: %v", n, threads, dev.Name(), err)
			}
			ks = append(ks, fromDevice(t, ck), fromDevice(t, uk))
			vs = append(vs, fromDevice(t, cv), fromDevice(t, uv))
		}
		for _, d := range []string{
			differ("computed keys", ks[0], ks[2]), differ("unzipped keys", ks[1], ks[3]),
			differ("computed values", vs[0], vs[2]), differ("unzipped values", vs[1], vs[3]),
			differ("computed keys against Go", ks[0], keys), differ("computed values against Go", vs[0], vals),
		} {
			if d != "" {
				t.Errorf("%d pairs, %d threads: the GPU differs: %s", n, threads, d)
			}
		}
	}
	// The sorting network takes one step per pair: up to 300 steps.
	for _, n := range []int{2, 64, 1 + r.IntN(300)} {
		threads := 32 << r.IntN(4)
		keys, vals := keyValues(r.Uint64(), n, 1<<r.IntN(32))
		gotK, gotV, err := sortPairs(gpu, threads, keys, vals)
		if err != nil {
			t.Fatalf("sorting %d pairs on the GPU: %v", n, err)
		}
		wantK, wantV, err := sortPairs(cpu, threads, keys, vals)
		if err != nil {
			t.Fatalf("sorting %d pairs on the CPU: %v", n, err)
		}
		goK, goV := stableSortPairs(keys, vals)
		for _, d := range []string{differ("keys", gotK, wantK), differ("values", gotV, wantV),
			differ("keys against Go", gotK, goK), differ("values against Go", gotV, goV)} {
			if d != "" {
				t.Errorf("sorting %d pairs, %d threads: the GPU differs: %s", n, threads, d)
			}
		}
	}
}
