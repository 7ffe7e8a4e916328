package launch_test

import (
	goruntime "runtime"
	"testing"

	"github.com/obsidian-go/obsidian/examples/vecadd"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestGPULauncherAcrossCollectionsAndDevices launches a generated launcher
// on GPU 0 with the garbage collector run between launches (so that its
// cache drops the loaded function and loads it again), then on a GPU
// opened again after closing the first, comparing every element with Go on
// fresh random data (seeded as property tests are). It skips, saying
// why, where there is no GPU.
func TestGPULauncherAcrossCollectionsAndDevices(t *testing.T) {
	rng := proptest.Parameters(t, 1).Rng // seed logged, replayable
	for round := range 2 {
		gpu, err := runtime.Open(0)
		if err != nil {
			t.Skip(err)
		}
		for launch := range 4 {
			n := 1 + rng.Intn(100_000)
			a, b := make([]float32, n), make([]float32, n)
			for i := range a {
				a[i], b[i] = rng.Float32()*2e3-1e3, rng.Float32()*2e3-1e3
			}
			da, err := runtime.FromSlice(gpu, a)
			if err != nil {
				t.Fatal(err)
			}
			db, err := runtime.FromSlice(gpu, b)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := runtime.Alloc[float32](gpu, n)
			if err != nil {
				t.Fatal(err)
			}
			if err := vecadd.Vecadd(gpu, runtime.LaunchConfig{}, da, db, sum); err != nil {
				t.Fatalf("round %d, launch %d: %v", round, launch, err)
			}
			got, err := sum.ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if want := a[i] + b[i]; got[i] != want {
					t.Fatalf("round %d, launch %d, element %d of %d: got %v, want %v", round, launch, i, n, got[i], want)
				}
			}
			for _, buf := range []*runtime.Buffer[float32]{da, db, sum} {
				if err := buf.Free(); err != nil {
					t.Fatal(err)
				}
			}
			goruntime.GC()
		}
		if err := gpu.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
