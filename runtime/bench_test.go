package runtime_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
)

// emptyKernel is CUDA text for a kernel that does nothing.
const emptyKernel = "extern \"C\" __global__ void empty() {}\n"

// BenchmarkGPUCompileCold compiles a kernel NVRTC has not seen in this
// process, with the disk cache off: the cost of a first Load.
func BenchmarkGPUCompileCold(b *testing.B) {
	g := gpuForTest(b)
	for i := 0; b.Loop(); i++ {
		src := fmt.Sprintf("%s// variant %d %d\n", emptyKernel, time.Now().UnixNano(), i)
		if _, err := g.LoadCUDA(src, "empty", nil, 0, 32); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/compile")
}

// BenchmarkGPULoadDiskHit loads a kernel found in the disk cache by a GPU
// handle that has not loaded it yet: the cost of a Load in a new process.
func BenchmarkGPULoadDiskHit(b *testing.B) {
	gpuForTest(b) // keeps the primary context alive between handles
	dir := b.TempDir()
	warm := must(runtime.Open(0))(b)
	warm.SetCacheDir(dir)
	if _, err := warm.Load(reverseBlocks()); err != nil {
		b.Fatal(err)
	}
	_ = warm.Close()
	var load time.Duration
	for b.Loop() {
		g := must(runtime.Open(0))(b)
		g.SetCacheDir(dir)
		start := time.Now()
		if _, err := g.Load(reverseBlocks()); err != nil {
			b.Fatal(err)
		}
		load += time.Since(start)
		if s := g.CacheStats(); s.DiskHits != 1 || s.Compiles != 0 {
			b.Fatalf("stats %+v, want one disk hit", s)
		}
		_ = g.Close()
	}
	b.ReportMetric(float64(load.Microseconds())/float64(b.N), "µs/load")
}

// BenchmarkGPULoadMemoryHit loads a kernel this GPU handle has loaded
// before (codegen runs again; NVRTC does not).
func BenchmarkGPULoadMemoryHit(b *testing.B) {
	g := gpuForTest(b)
	if _, err := g.Load(reverseBlocks()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := g.Load(reverseBlocks()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGPULaunchEmpty measures launches of an empty kernel: the time
// per launch, once all are synchronized. Launches queue faster than the GPU
// runs even empty kernels, so this is the launch rate the queue sustains.
func BenchmarkGPULaunchEmpty(b *testing.B) {
	g := gpuForTest(b)
	f := must(g.LoadCUDA(emptyKernel, "empty", nil, 0, 32))(b)
	cfg := runtime.LaunchConfig{Blocks: 1}
	if err := errorsOf(g.Launch(f, cfg), g.Synchronize()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := g.Launch(f, cfg); err != nil {
			b.Fatal(err)
		}
	}
	if err := g.Synchronize(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N), "µs/launch")
}

// BenchmarkGPULaunchEmptySync launches an empty kernel and waits for it:
// the round trip of one small launch.
func BenchmarkGPULaunchEmptySync(b *testing.B) {
	g := gpuForTest(b)
	f := must(g.LoadCUDA(emptyKernel, "empty", nil, 0, 32))(b)
	cfg := runtime.LaunchConfig{Blocks: 1}
	for b.Loop() {
		if err := errorsOf(g.Launch(f, cfg), g.Synchronize()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N), "µs/round-trip")
}

// BenchmarkGPULaunchVectorAdd launches a kernel with three buffer
// arguments and its grid from the kernel's Blocks expression, waiting for
// each launch.
func BenchmarkGPULaunchVectorAdd(b *testing.B) {
	g := gpuForTest(b)
	f := must(g.Load(vectorAdd()))(b)
	x := must(runtime.Alloc[float32](g, 1024))(b)
	for b.Loop() {
		if err := g.Launch(f, runtime.LaunchConfig{}, x, x, x); err != nil {
			b.Fatal(err)
		}
		if err := g.Synchronize(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCPULaunchVectorAdd is the evaluator's cost for the same launch.
func BenchmarkCPULaunchVectorAdd(b *testing.B) {
	d := runtime.CPU()
	f := must(d.Load(vectorAdd()))(b)
	x := must(runtime.Alloc[float32](d, 1024))(b)
	for b.Loop() {
		if err := d.Launch(f, runtime.LaunchConfig{}, x, x, x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGPULaunchHost measures the host's part of a launch of a kernel
// with three buffer arguments and its grid from the kernel's Blocks
// expression: launches in batches small enough that the GPU's queue never
// fills, timed without the synchronization after each batch.
func BenchmarkGPULaunchHost(b *testing.B) {
	g := gpuForTest(b)
	f := must(g.Load(vectorAdd()))(b)
	x := must(runtime.Alloc[float32](g, 1024))(b)
	const batch = 64
	launches := 0
	for b.Loop() {
		if err := g.Launch(f, runtime.LaunchConfig{}, x, x, x); err != nil {
			b.Fatal(err)
		}
		if launches++; launches%batch == 0 {
			b.StopTimer()
			if err := g.Synchronize(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N), "µs/launch")
}

// BenchmarkGPULaunchBetweenEvents times the same launch as a benchmark of a
// sort times it: an event before it and one after it on the default
// stream, on an idle GPU, so that the host's part counts with the
// kernel's. It reports the median of the events' times.
func BenchmarkGPULaunchBetweenEvents(b *testing.B) {
	g := gpuForTest(b)
	f := must(g.Load(vectorAdd()))(b)
	x := must(runtime.Alloc[float32](g, 1024))(b)
	start, stop := must(g.NewEvent())(b), must(g.NewEvent())(b)
	var times []float64
	for b.Loop() {
		err := errorsOf(start.Record(nil), g.Launch(f, runtime.LaunchConfig{}, x, x, x), stop.Record(nil), stop.Synchronize())
		if err != nil {
			b.Fatal(err)
		}
		elapsed := must(stop.Since(start))(b)
		times = append(times, float64(elapsed.Nanoseconds())/1e3)
	}
	slices.Sort(times)
	b.ReportMetric(times[len(times)/2], "µs/median")
}
