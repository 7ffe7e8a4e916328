package runtime_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

func TestGPUProperties(t *testing.T) {
	g := gpuForTest(t)
	p := must(g.Properties())(t)
	t.Logf("%s: compute %d.%d, %d SMs, %d threads/block, shared %d (opt-in %d) bytes/block, memory %d/%d MiB free, driver %d",
		g.Name(), p.Major, p.Minor, p.Multiprocessors, p.MaxThreadsPerBlock, p.SharedPerBlock, p.SharedPerBlockOptIn,
		p.FreeMemory>>20, p.TotalMemory>>20, p.DriverVersion)
	c, err := runtime.Compiler()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("NVRTC %s from %s, CUBIN architectures %v", c.Version, c.Path, c.Archs)
	if p.Name == "" || p.Major < 3 || p.Multiprocessors < 1 || p.MaxThreadsPerBlock < 256 ||
		p.SharedPerBlock < 16<<10 || p.SharedPerBlockOptIn < p.SharedPerBlock ||
		p.TotalMemory == 0 || p.FreeMemory == 0 || p.FreeMemory > p.TotalMemory {
		t.Errorf("implausible properties %+v", p)
	}
}

// evalLaunch runs k with the evaluator on copies of the given host arrays
// (in parameter order, with scalars) and returns the output arrays' bytes.
func evalLaunch(t *testing.T, k *ir.Kernel, args ...any) [][]byte {
	t.Helper()
	compiled := must(codegen.Compile(k, codegen.Target{MaxSharedBytes: runtime.CPUMaxSharedBytes}))(t)
	evalArgs := make([]eval.Arg, len(args))
	var outs [][]byte
	for i, a := range args {
		switch a := a.(type) {
		case []float32:
			evalArgs[i] = eval.Arg{Buffer: bufferOf(ir.Float32, a)}
		case []uint32:
			evalArgs[i] = eval.Arg{Buffer: bufferOf(ir.Uint32, a)}
		case []int64:
			evalArgs[i] = eval.Arg{Buffer: bufferOf(ir.Int64, a)}
		default:
			v, ok := scalarOf(a)
			if !ok {
				t.Fatalf("argument %d: unsupported %T", i, a)
			}
			evalArgs[i] = eval.Arg{Scalar: v}
		}
	}
	blocks := must(eval.HostExpr(compiled, compiled.Blocks, evalArgs))(t)
	if err := eval.Launch(compiled, eval.Config{Blocks: int(blocks.Int())}, evalArgs); err != nil {
		t.Fatal(err)
	}
	for i, p := range compiled.Params {
		if p.Array != nil && p.Array.Access != ir.Input {
			outs = append(outs, evalArgs[i].Buffer.Data)
		}
	}
	return outs
}

func bufferOf[T runtime.Scalar](t ir.Type, s []T) *eval.Buffer {
	b := eval.NewBuffer(t, len(s))
	for i, x := range s {
		v, _ := scalarOf(x)
		for j := range t.Size() {
			b.Data[i*t.Size()+j] = byte(v.Bits >> (8 * j))
		}
	}
	return b
}

func scalarOf(x any) (ir.Value, bool) {
	switch x := x.(type) {
	case float32:
		return ir.FloatValue(ir.Float32, float64(x)), true
	case uint32:
		return ir.UintValue(ir.Uint32, uint64(x)), true
	case int32:
		return ir.IntValue(ir.Int32, int64(x)), true
	case int64:
		return ir.IntValue(ir.Int64, x), true
	case bool:
		return ir.BoolValue(x), true
	}
	return ir.Value{}, false
}

// sameBytes compares a GPU result with the evaluator's, element by element.
func sameBytes[T runtime.Scalar](t *testing.T, what string, got []T, want []byte) {
	t.Helper()
	ref := bufferOf(runtime.TypeOf[T](), got).Data
	size := runtime.TypeOf[T]().Size()
	if len(ref) != len(want) {
		t.Fatalf("%s: %d bytes, evaluator %d", what, len(ref), len(want))
	}
	for i := 0; i < len(ref); i += size {
		if string(ref[i:i+size]) != string(want[i:i+size]) {
			t.Fatalf("%s: element %d is %v on the GPU, evaluator bytes %x", what, i/size, got[i/size], want[i:i+size])
		}
	}
}

func TestGPUMatchesEvaluator(t *testing.T) {
	g := gpuForTest(t)
	r := testRand(t)
	const n = 100003
	a, b := randomFloats(r, n), randomFloats(r, n)
	in := randomUints(r, n)

	vadd := must(g.Load(vectorAdd()))(t)
	out := must(runtime.Alloc[float32](g, n))(t)
	if err := g.Launch(vadd, runtime.LaunchConfig{}, must(runtime.FromSlice(g, a))(t), must(runtime.FromSlice(g, b))(t), out); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, "vadd", must(out.ToSlice())(t), evalLaunch(t, vectorAdd(), a, b, make([]float32, n))[0])

	rev := must(g.Load(reverseBlocks()))(t)
	rout := must(runtime.Alloc[uint32](g, n))(t)
	if err := g.Launch(rev, runtime.LaunchConfig{}, must(runtime.FromSlice(g, in))(t), rout); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, "reverse", must(rout.ToSlice())(t), evalLaunch(t, reverseBlocks(), in, make([]uint32, n))[0])

	mix := must(g.Load(mixScalars()))(t)
	mout := must(runtime.Alloc[int64](g, 1000))(t)
	for _, flag := range []bool{true, false} {
		x, y := int64(r.Uint64()), int32(r.Uint32())
		if err := g.Launch(mix, runtime.LaunchConfig{}, mout, x, flag, y); err != nil {
			t.Fatal(err)
		}
		sameBytes(t, fmt.Sprintf("mix flag=%v", flag), must(mout.ToSlice())(t), evalLaunch(t, mixScalars(), make([]int64, 1000), x, flag, y)[0])
	}
}

func TestGPUConcurrentLaunches(t *testing.T) {
	g := gpuForTest(t)
	f := must(g.Load(vectorAdd()))(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			const n = 50000
			a := make([]float32, n)
			for i := range a {
				a[i] = float32(w*n + i)
			}
			x, err := runtime.FromSlice(g, a)
			if err != nil {
				errs <- err
				return
			}
			defer func() { _ = x.Free() }()
			for round := range 20 {
				y, err := runtime.Alloc[float32](g, n)
				if err == nil {
					err = g.Launch(f, runtime.LaunchConfig{}, x, x, y)
				}
				var got []float32
				if err == nil {
					got, err = y.ToSlice()
				}
				if err != nil {
					errs <- fmt.Errorf("worker %d round %d: %w", w, round, err)
					return
				}
				for i, v := range got {
					if v != 2*a[i] {
						errs <- fmt.Errorf("worker %d round %d: y[%d] = %v, want %v", w, round, i, v, 2*a[i])
						return
					}
				}
				if err := y.Free(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestGPULaunchAllocations checks that a launch allocates almost nothing
// on the host: its arguments' bookkeeping lives on the stack and the
// memory handed to the driver is pooled, leaving the driver calls' own
// argument lists (one for making the context current, one for the launch).
func TestGPULaunchAllocations(t *testing.T) {
	g := gpuForTest(t)
	f := must(g.Load(vectorAdd()))(t)
	x := must(runtime.Alloc[float32](g, 1024))(t)
	defer func() { _ = x.Free() }()
	var err error
	allocs := testing.AllocsPerRun(200, func() { err = errors.Join(err, g.Launch(f, runtime.LaunchConfig{}, x, x, x)) })
	if err = errors.Join(err, g.Synchronize()); err != nil {
		t.Fatal(err)
	}
	t.Logf("%.1f allocations per launch", allocs)
	if allocs > 2 {
		t.Errorf("%.1f allocations per launch, want at most 2", allocs)
	}
}

func TestGPUCompileErrorCarriesLog(t *testing.T) {
	g := gpuForTest(t)
	src := "extern \"C\" __global__ void broken(unsigned int* out, unsigned int n) {\n" +
		"  unsigned int i = threadIdx.x\n" +
		"  if (i < n) out[i] = i;\n" +
		"}\n"
	sig := runtime.Signature{{Name: "out", Type: ir.Uint32, Array: true}}
	_, err := g.LoadCUDA(src, "broken", sig, 0, 64)
	var ce *runtime.CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("loading broken CUDA: %v, want a *CompileError", err)
	}
	t.Logf("the error reads:\n%s", err)
	if !strings.Contains(ce.Log, "broken.cu(") || len(ce.Lines()) == 0 {
		t.Errorf("log names no line: %q", ce.Log)
	}
	if !strings.Contains(err.Error(), "if (i < n) out[i] = i;") {
		t.Errorf("the message does not quote the offending CUDA line:\n%s", err)
	}
}

func TestGPULoadCUDA(t *testing.T) {
	g := gpuForTest(t)
	compiled := must(codegen.Compile(vectorAdd(), codegen.Target{MaxSharedBytes: 48 << 10}))(t)
	f := must(g.LoadCUDA(codegen.Print(compiled), compiled.Name, runtime.SignatureOf(compiled), compiled.SharedBytes, compiled.Threads))(t)
	x := must(runtime.FromSlice(g, []float32{1, 2, 3}))(t)
	y := must(runtime.Alloc[float32](g, 3))(t)
	if err := g.Launch(f, runtime.LaunchConfig{}, x, x, y); err == nil || !strings.Contains(err.Error(), "Blocks must be set") {
		t.Errorf("launching CUDA text without Blocks: %v", err)
	}
	if err := g.Launch(f, runtime.LaunchConfig{Blocks: 1}, x, x, y); err != nil {
		t.Fatal(err)
	}
	if got := must(y.ToSlice())(t); got[0] != 2 || got[1] != 4 || got[2] != 6 {
		t.Errorf("y = %v", got)
	}
	if err := g.Launch(f, runtime.LaunchConfig{Blocks: 1}, x, int32(1), y); err == nil {
		t.Error("a scalar for an array parameter of a CUDA-text kernel was accepted")
	}
}

// TestGPUResidentBlocks checks the occupancy the GPU reports for a kernel
// of few registers and no shared memory (whole blocks of 2048 threads a
// multiprocessor at most, and at least one) and for the same kernel asking
// for 100 KiB of shared memory a block (at most two a multiprocessor), and
// 0 for a function of another device.
func TestGPUResidentBlocks(t *testing.T) {
	g := gpuForTest(t)
	p := must(g.Properties())(t)
	compiled := must(codegen.Compile(vectorAdd(), codegen.Target{MaxSharedBytes: 48 << 10}))(t)
	src, sig := codegen.Print(compiled), runtime.SignatureOf(compiled)
	light := must(g.LoadCUDA(src, compiled.Name, sig, 0, 256))(t)
	heavy := must(g.LoadCUDA(src, compiled.Name, sig, 100<<10, 256))(t)
	l, h := g.ResidentBlocks(light), g.ResidentBlocks(heavy)
	t.Logf("%d multiprocessors: %d resident blocks of 256 threads, %d with 100 KiB of shared memory", p.Multiprocessors, l, h)
	if l < p.Multiprocessors || l > p.Multiprocessors*2048/256 || l%p.Multiprocessors != 0 {
		t.Errorf("%d resident blocks of 256 threads on %d multiprocessors", l, p.Multiprocessors)
	}
	if h < p.Multiprocessors || h > 2*p.Multiprocessors || h%p.Multiprocessors != 0 {
		t.Errorf("%d resident blocks with 100 KiB of shared memory on %d multiprocessors", h, p.Multiprocessors)
	}
	cpu := must(runtime.CPU().Load(vectorAdd()))(t)
	if n := g.ResidentBlocks(cpu); n != 0 {
		t.Errorf("a CPU function: %d resident blocks, want 0", n)
	}
}

func TestGPUStreamsAndEvents(t *testing.T) {
	g := gpuForTest(t)
	f := must(g.Load(vectorAdd()))(t)
	s := must(g.NewStream())(t)
	start, end := must(g.NewEvent())(t), must(g.NewEvent())(t)
	x := must(runtime.FromSlice(g, make([]float32, 1<<20)))(t)
	if err := x.Fill(1); err != nil {
		t.Fatal(err)
	}
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if err := g.Launch(f, runtime.LaunchConfig{Stream: s}, x, x, x); err != nil {
			t.Fatal(err)
		}
	}
	if err := errorsOf(end.Record(s), end.Synchronize(), s.Synchronize()); err != nil {
		t.Fatal(err)
	}
	took := must(end.Since(start))(t)
	t.Logf("10 in-place doublings of 2^20 floats took %v", took)
	if took <= 0 || took > 10*time.Second {
		t.Errorf("implausible time %v", took)
	}
	got := must(x.View(12345, 1).ToSlice())(t)
	if got[0] != 1024 {
		t.Errorf("x[12345] = %v after 10 doublings, want 1024", got[0])
	}
	if err := errorsOf(start.Close(), end.Close(), s.Close()); err != nil {
		t.Fatal(err)
	}
}

// TestGPUFillOnStream checks that fills queued on a stream run in its
// order, between launches, and fill exactly the buffer or view given, by
// each way the GPU fills: a byte memset, a word memset, and copies of a
// host block for 8-byte values whose halves differ.
func TestGPUFillOnStream(t *testing.T) {
	g := gpuForTest(t)
	f := must(g.Load(vectorAdd()))(t)
	s := must(g.NewStream())(t)
	defer s.Close()
	// Ten doublings queued, then a fill of 1 and one doubling: 2 only if
	// the fill ran after the ten and before the last.
	x := must(runtime.FromSlice(g, make([]float32, 1<<20)))(t)
	if err := x.FillOn(s, 3); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if err := g.Launch(f, runtime.LaunchConfig{Stream: s}, x, x, x); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.FillOn(s, 1); err != nil {
		t.Fatal(err)
	}
	if err := errorsOf(g.Launch(f, runtime.LaunchConfig{Stream: s}, x, x, x), s.Synchronize()); err != nil {
		t.Fatal(err)
	}
	for i, v := range must(x.ToSlice())(t) {
		if v != 2 {
			t.Fatalf("x[%d] = %v, want 2: a fill queued on the stream ran out of its order", i, v)
		}
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	fillView(t, g, s, r, uint8(r.Uint32()))
	fillView(t, g, s, r, r.Uint32())
	fillView(t, g, s, r, uint64(r.Uint32())*0x1_0000_0001) // halves alike: a word memset
	fillView(t, g, s, r, r.Uint64()|1<<63)                 // a copied block
}

// fillView fills a random view of a buffer of random elements with v on
// s, and checks every element of the buffer: v inside the view, unchanged
// outside.
func fillView[T uint8 | uint32 | uint64](t *testing.T, g *runtime.GPU, s runtime.Stream, r *rand.Rand, v T) {
	t.Helper()
	n := 1<<21 + r.IntN(1<<20) // past the GPU's host block of 1 MiB for 8-byte values
	want := make([]T, n)
	for i := range want {
		want[i] = T(r.Uint64())
	}
	x := must(runtime.FromSlice(g, want))(t)
	defer x.Free()
	off := r.IntN(n / 2)
	size := r.IntN(n - off)
	if err := errorsOf(x.View(off, size).FillOn(s, v), s.Synchronize()); err != nil {
		t.Fatal(err)
	}
	for i := off; i < off+size; i++ {
		want[i] = v
	}
	got := must(x.ToSlice())(t)
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%T fill of [%d, %d) with %#x: element %d is %#x, want %#x", v, off, off+size, v, i, got[i], want[i])
		}
	}
}

func TestGPUNoLeakOverManyLaunches(t *testing.T) {
	g := gpuForTest(t)
	f := must(g.Load(vectorAdd()))(t)
	if err := g.Synchronize(); err != nil {
		t.Fatal(err)
	}
	before, _, err := g.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		x, err := runtime.Alloc[float32](g, 1000+i%7)
		if err != nil {
			t.Fatal(err)
		}
		y := must(runtime.Alloc[float32](g, x.Len()))(t)
		if err := g.Launch(f, runtime.LaunchConfig{}, x, x, y); err != nil {
			t.Fatal(err)
		}
		if err := errorsOf(x.Free(), y.Free()); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Synchronize(); err != nil {
		t.Fatal(err)
	}
	after, _, err := g.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("free memory before %d, after %d bytes", before, after)
	if before > after+4<<20 {
		t.Errorf("10^4 alloc/launch/free rounds lost %d bytes of device memory", before-after)
	}
}

// The disk cache test runs the test binary again as a child process that
// loads the same kernel from the same cache folder.
const cacheChildEnv = "OBSIDIAN_TEST_CACHE_CHILD"

func TestGPUDiskCacheAcrossProcesses(t *testing.T) {
	if os.Getenv(cacheChildEnv) != "" {
		t.Skip("running as the child of this test")
	}
	gpuForTest(t)
	dir := t.TempDir()
	g := must(runtime.Open(0))(t)
	defer func() { _ = g.Close() }()
	g.SetCacheDir(dir)
	if _, err := g.Load(reverseBlocks()); err != nil {
		t.Fatal(err)
	}
	if s := g.CacheStats(); s.Compiles != 1 {
		t.Fatalf("first load: %+v, want one compile", s)
	}
	if _, err := g.Load(reverseBlocks()); err != nil {
		t.Fatal(err)
	}
	if s := g.CacheStats(); s.Compiles != 1 || s.MemoryHits != 1 {
		t.Fatalf("second load: %+v, want a memory hit", s)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGPUDiskCacheChild$", "-test.v")
	cmd.Env = append(os.Environ(), cacheChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`compiles=(\d+) disk_hits=(\d+) load=(\S+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("child printed no stats:\n%s", out)
	}
	t.Logf("child process: %s", m[0])
	if c, _ := strconv.Atoi(string(m[1])); c != 0 {
		t.Errorf("the child compiled %d kernels, want 0", c)
	}
	if h, _ := strconv.Atoi(string(m[2])); h != 1 {
		t.Errorf("the child had %d disk hits, want 1", h)
	}
}

func TestGPUDiskCacheChild(t *testing.T) {
	dir := os.Getenv(cacheChildEnv)
	if dir == "" {
		t.Skip("run by TestGPUDiskCacheAcrossProcesses")
	}
	g := must(runtime.Open(0))(t)
	defer func() { _ = g.Close() }()
	g.SetCacheDir(dir)
	start := time.Now()
	if _, err := g.Load(reverseBlocks()); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	s := g.CacheStats()
	fmt.Printf("compiles=%d disk_hits=%d load=%v\n", s.Compiles, s.DiskHits, took)
}

func TestGPUCloseStopsUse(t *testing.T) {
	gpuForTest(t)
	g := must(runtime.Open(0))(t)
	b := must(runtime.Alloc[uint32](g, 10))(t)
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.Alloc[uint32](g, 10); err == nil {
		t.Error("allocating on a closed GPU succeeded")
	}
	if err := g.Close(); err == nil {
		t.Error("closing twice succeeded")
	}
}

// TestGPUConcurrentLoads loads 6 different kernels from 4 goroutines each,
// all at once, with the disk cache off: each compiles once (the others
// wait for it), every load returns a function that computes its sum, and
// loads of CUDA that does not compile all return its CompileError.
func TestGPUConcurrentLoads(t *testing.T) {
	gpuForTest(t)
	g := must(runtime.Open(0))(t)
	defer func() { _ = g.Close() }()
	g.SetCacheDir("")
	const kernels, loaders = 6, 4
	x := must(runtime.FromSlice(g, []float32{1, 2, 3}))(t)
	defer func() { _ = x.Free() }()
	broken := "extern \"C\" __global__ void broken(unsigned int* out) { out[0] = 1 }\n"
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, kernels*loaders*2)
	for k := range kernels {
		for range loaders {
			wg.Go(func() {
				kernel := vectorAdd()
				kernel.Name = fmt.Sprintf("vadd%d", k)
				<-start
				f, err := g.Load(kernel)
				if err != nil {
					errs <- fmt.Errorf("loading %s: %w", kernel.Name, err)
					return
				}
				y, err := runtime.Alloc[float32](g, 3)
				if err != nil {
					errs <- err
					return
				}
				defer func() { _ = y.Free() }()
				var got []float32
				if err = g.Launch(f, runtime.LaunchConfig{}, x, x, y); err == nil {
					got, err = y.ToSlice()
				}
				if err != nil || !slices.Equal(got, []float32{2, 4, 6}) {
					errs <- fmt.Errorf("%s: %v, %v; want [2 4 6]", kernel.Name, got, err)
				}
			})
			wg.Go(func() {
				<-start
				sig := runtime.Signature{{Name: "out", Type: ir.Uint32, Array: true}}
				_, err := g.LoadCUDA(broken, "broken", sig, 0, 32)
				if ce := (*runtime.CompileError)(nil); !errors.As(err, &ce) {
					errs <- fmt.Errorf("loading broken CUDA: %v, want a *CompileError", err)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s := g.CacheStats(); s.Compiles != kernels || s.MemoryHits != kernels*(loaders-1) {
		t.Errorf("cache %+v, want %d compiles and %d memory hits", s, kernels, kernels*(loaders-1))
	}
}
