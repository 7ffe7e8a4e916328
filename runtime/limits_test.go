package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// checkAllocSizes asks d for allocations whose byte count overflows an int
// or passes any memory there is: each must fail with an error wrapping
// ErrOutOfMemory that names the request, and d must stay usable.
func checkAllocSizes(t *testing.T, d runtime.Device) {
	for _, req := range []struct {
		t ir.Type
		n int
	}{
		{ir.Uint32, 1 << 62}, // 2^64 bytes: wraps to 0
		{ir.Uint32, 1 << 61}, // 2^63 bytes: wraps negative
		{ir.Float64, 1 << 61},
		{ir.Uint32, math.MaxInt},
		{ir.Uint32, 1 << 60}, // 2^62 bytes: no overflow, no such memory
		{ir.Uint64, 1 << 40}, // 8 TiB
		{ir.Bool, 1 << 62},
	} {
		m, err := d.Alloc(req.t, req.n)
		if err == nil {
			t.Errorf("allocating %d elements of %s succeeded (%d elements behind it)", req.n, req.t, m.Len())
			continue
		}
		if !errors.Is(err, runtime.ErrOutOfMemory) || !strings.Contains(err.Error(), fmt.Sprint(req.n)) {
			t.Errorf("allocating %d elements of %s: %v, want an error wrapping ErrOutOfMemory naming the count", req.n, req.t, err)
		}
	}
	if _, err := runtime.Alloc[uint32](d, 1<<62); !errors.Is(err, runtime.ErrOutOfMemory) {
		t.Errorf("Alloc[uint32](2^62): %v", err)
	}
	b := must(runtime.FromSlice(d, []uint32{7, 8, 9}))(t)
	if got := must(b.ToSlice())(t); got[0] != 7 || got[2] != 9 {
		t.Errorf("after the refused allocations a buffer reads %v", got)
	}
}

func TestCPUAllocChecksByteSize(t *testing.T) { checkAllocSizes(t, runtime.CPU()) }

func TestGPUAllocChecksByteSize(t *testing.T) { checkAllocSizes(t, gpuForTest(t)) }

func TestCPUMemoryLimit(t *testing.T) {
	d := runtime.CPU(runtime.CPUMemoryLimit(1 << 20))
	a := must(runtime.Alloc[uint32](d, 1<<18))(t) // the whole MiB
	_, err := runtime.Alloc[bool](d, 1)
	if !errors.Is(err, runtime.ErrOutOfMemory) || !strings.Contains(err.Error(), "1048576") ||
		!strings.Contains(err.Error(), "CPUMemoryLimit") {
		t.Errorf("allocating past the limit: %v, want ErrOutOfMemory naming the limit and how to set it", err)
	}
	if v := a.View(0, 10); v.Len() != 10 {
		t.Errorf("a view of a buffer at the limit has %d elements", v.Len())
	}
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	b := must(runtime.Alloc[uint64](d, 1<<17))(t) // freed memory is available again
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.Alloc[bool](runtime.CPU(runtime.CPUMemoryLimit(-5)), 1); !errors.Is(err, runtime.ErrOutOfMemory) {
		t.Errorf("allocating under a negative limit: %v", err)
	}
}

func TestDefaultCPUMemoryLimit(t *testing.T) {
	limit := runtime.DefaultCPUMemoryLimit()
	t.Logf("the CPU device's default limit here is %d MiB", limit>>20)
	if limit <= 0 {
		t.Errorf("default limit %d", limit)
	}
	// A quarter past: the memory available may grow a little between the
	// two readings.
	if _, err := runtime.Alloc[uint64](runtime.CPU(), int(limit/8+limit/32)); !errors.Is(err, runtime.ErrOutOfMemory) {
		t.Errorf("allocating past the default limit: %v", err)
	}
	meminfo := "MemTotal:       24684084 kB\nMemFree:        23337740 kB\nMemAvailable:   23684572 kB\n"
	if v, ok := runtime.MemAvailable(meminfo); !ok || v != 23684572<<10 {
		t.Errorf("MemAvailable of a meminfo: %d, %v", v, ok)
	}
	for _, bad := range []string{"", "MemAvailable: 12 MB\n", "MemAvailable: x kB\n", "MemAvailable: 99999999999999999999 kB\n"} {
		if v, ok := runtime.MemAvailable(bad); ok {
			t.Errorf("MemAvailable(%q) = %d", bad, v)
		}
	}
	for _, c := range []struct {
		max, current string
		want         int64
		ok           bool
	}{
		{"1073741824\n", "73741824\n", 1000000000, true},
		{"100\n", "200\n", 0, true},
		{"max\n", "200\n", 0, false},
		{"", "", 0, false},
	} {
		if v, ok := runtime.CgroupAvailable(c.max, c.current); v != c.want || ok != c.ok {
			t.Errorf("CgroupAvailable(%q, %q) = %d, %v; want %d, %v", c.max, c.current, v, ok, c.want, c.ok)
		}
	}
}

// TestCPULaunchStateCountsAgainstLimit launches, with up to 8 blocks at
// once, on devices whose limit holds the buffers but not the evaluator's
// state for one block, that for one block only, for a few, and for all 8:
// the first fails with ErrOutOfMemory, the others run (fewer blocks at
// once) and compute what they should.
func TestCPULaunchStateCountsAgainstLimit(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(8))
	const n = 1 << 13
	buffers := int64(3 * n * 4)
	f := must(runtime.CPU().Load(vectorAdd()))(t)
	least, all := runtime.CPULeastLaunchStateBytes(f, []int{n, n, n}), runtime.CPULaunchStateBytes(f, []int{n, n, n}, n/256)
	if all < 4*least {
		t.Fatalf("the state of 8 blocks at once is %d bytes, of one %d: want several times as much", all, least)
	}
	r := testRand(t)
	for _, c := range []struct {
		limit int64
		ok    bool
	}{{buffers + least/2, false}, {buffers + least, true}, {buffers + all/2, true}, {buffers + all, true}} {
		d := runtime.CPU(runtime.CPUMemoryLimit(c.limit))
		f := must(d.Load(vectorAdd()))(t)
		values := randomFloats(r, n)
		a := must(runtime.FromSlice(d, values))(t)
		out := must(runtime.Alloc[float32](d, n))(t)
		err := d.Launch(f, runtime.LaunchConfig{}, a, a, out)
		switch {
		case c.ok && err != nil:
			t.Errorf("limit %d: %v", c.limit, err)
		case !c.ok && (!errors.Is(err, runtime.ErrOutOfMemory) || !strings.Contains(err.Error(), "evaluator's state")):
			t.Errorf("limit %d: %v, want ErrOutOfMemory for the evaluator's state", c.limit, err)
		case c.ok:
			got := must(out.ToSlice())(t)
			for i, v := range got {
				if v != values[i]+values[i] {
					t.Fatalf("limit %d: out[%d] = %v, want %v", c.limit, i, v, values[i]+values[i])
				}
			}
		}
		// The launch's state is given back: the rest of the limit can be
		// allocated.
		if _, err := runtime.Alloc[bool](d, int(c.limit-2*buffers/3)); err != nil {
			t.Errorf("limit %d: after the launch: %v", c.limit, err)
		}
	}
}

// TestCPULaunchStateEstimate measures what launches allocate for a kernel
// writing n elements, against what the device counts for them. The
// evaluator keeps the state of finished launches for the next ones until
// the garbage collector takes it: two collections first leave none.
func TestCPULaunchStateEstimate(t *testing.T) {
	for _, n := range []int{1 << 16, 1 << 20} {
		d := runtime.CPU()
		f := must(d.Load(vectorAdd()))(t)
		a := must(runtime.FromSlice(d, make([]float32, n)))(t)
		out := must(runtime.Alloc[float32](d, n))(t)
		blocks := (n + 255) / 256
		var before, after goruntime.MemStats
		goruntime.GC()
		goruntime.GC()
		goruntime.ReadMemStats(&before)
		if err := d.Launch(f, runtime.LaunchConfig{}, a, a, out); err != nil {
			t.Fatal(err)
		}
		goruntime.ReadMemStats(&after)
		allocated := float64(after.TotalAlloc - before.TotalAlloc)
		estimate := float64(runtime.CPULaunchStateBytes(f, []int{n, n, n}, blocks))
		t.Logf("a launch writing %d elements allocated %.0f bytes, %.1f per element; the estimate is %.0f", n,
			allocated, allocated/float64(n), estimate)
		if allocated < 0.75*estimate || allocated > 1.25*estimate+64<<10 {
			t.Errorf("n=%d: the launch allocated %.0f bytes, the device counts %.0f", n, allocated, estimate)
		}
		// The state of a large launch is a few bytes per element written,
		// plus that of the blocks running at once (one per core).
		if perElement := allocated / float64(n); n >= 1<<20 && perElement > 16 {
			t.Errorf("n=%d: the launch allocated %.1f bytes per element written, want at most 16", n, perElement)
		}
	}
}

// checkEmptyLaunch launches kernels whose unsigned Blocks expression is 0
// on empty buffers: the grid is clamped to one block.
func checkEmptyLaunch(t *testing.T, d runtime.Device) {
	vadd := must(d.Load(vectorAdd()))(t)
	empty := must(runtime.Alloc[float32](d, 0))(t)
	if err := d.Launch(vadd, runtime.LaunchConfig{}, empty, empty, empty); err != nil {
		t.Errorf("vector add of empty buffers: %v", err)
	}
	rev := must(d.Load(reverseBlocks()))(t)
	none := must(runtime.Alloc[uint32](d, 0))(t)
	if err := d.Launch(rev, runtime.LaunchConfig{}, none, none); err != nil {
		t.Errorf("reverse of empty buffers: %v", err)
	}
	if err := d.Synchronize(); err != nil {
		t.Error(err)
	}
}

func TestCPUEmptyLaunch(t *testing.T) { checkEmptyLaunch(t, runtime.CPU()) }

func TestGPUEmptyLaunch(t *testing.T) { checkEmptyLaunch(t, gpuForTest(t)) }

// manyBlocks launches vectorAdd with the largest grid, 2^31-1 blocks: on
// the CPU that takes minutes unless cancelled.
func manyBlocks(ctx context.Context, d runtime.Device, f runtime.Function, x, y *runtime.Buffer[float32]) error {
	return d.Launch(f, runtime.LaunchConfig{Blocks: 1<<31 - 1, Context: ctx}, x, x, y)
}

// TestCPUGridTooLarge: a grid larger than any GPU launches is an error, not
// a smaller grid that would leave blocks undone.
func TestCPUGridTooLarge(t *testing.T) {
	d := runtime.CPU()
	f := must(d.Load(vectorAdd()))(t)
	x := must(runtime.FromSlice(d, []float32{1, 2, 3}))(t)
	err := d.Launch(f, runtime.LaunchConfig{Blocks: 1 << 40}, x, x, x)
	if err == nil || !strings.Contains(err.Error(), "1099511627776 blocks") {
		t.Fatalf("launch of 2^40 blocks: %v, want an error naming the count", err)
	}
}

// TestCPUContextCancelsEveryLaunch: the device's context stops a running
// launch and refuses later ones, with the context's cause.
func TestCPUContextCancelsEveryLaunch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	d := runtime.CPU(runtime.CPUContext(ctx))
	f := must(d.Load(vectorAdd()))(t)
	x := must(runtime.FromSlice(d, []float32{1, 2, 3}))(t)
	y := must(runtime.FromSlice(d, []float32{-1, -1, -1}))(t)
	start := time.Now()
	if err := manyBlocks(context.Background(), d, f, x, y); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a long launch on a device whose context timed out: %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the launch stopped after %v", d)
	}
	if err := d.Launch(f, runtime.LaunchConfig{}, x, x, y); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a launch after the device's context is done: %v", err)
	}
}

func TestCPULaunchCancellation(t *testing.T) {
	d := runtime.CPU()
	f := must(d.Load(vectorAdd()))(t)
	x := must(runtime.FromSlice(d, []float32{1, 2, 3}))(t)
	y := must(runtime.FromSlice(d, []float32{-1, -1, -1}))(t)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := manyBlocks(cancelled, d, f, x, y); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "vadd") {
		t.Errorf("launch with a cancelled context: %v, want an error naming the kernel and wrapping context.Canceled", err)
	}
	if got := must(y.ToSlice())(t); got[0] != -1 {
		t.Errorf("a launch cancelled before it started wrote %v", got)
	}

	ctx, stop := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer stop()
	start := time.Now()
	err := manyBlocks(ctx, d, f, x, y)
	took := time.Since(start)
	t.Logf("cancelled after %v: %v", took, err)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "cancelled before block") {
		t.Errorf("launch past its deadline: %v, want an error wrapping context.DeadlineExceeded", err)
	}

	if err := d.Launch(f, runtime.LaunchConfig{Context: context.Background()}, x, x, y); err != nil {
		t.Fatal(err)
	}
	if got := must(y.ToSlice())(t); got[0] != 2 || got[1] != 4 || got[2] != 6 {
		t.Errorf("launch with a live context computed %v", got)
	}
}

// longLoop is one block whose thread 0 counts to 2^27 in a loop.
func longLoop() *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output)
	i, j := &ir.Var{Name: "i", T: ir.Uint32}, &ir.Var{Name: "j", T: ir.Uint32}
	return &ir.Kernel{
		Name:    "long_loop",
		Threads: 32,
		Params:  []ir.Param{{Array: out}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: u32(1), Body: []ir.Stmt{
			&ir.For{Var: j, Count: u32(1 << 27), Body: []ir.Stmt{&ir.Store{Array: out, Index: u32(0), Value: j}}}}}},
		Blocks: u32(1),
	}
}

// TestCPULaunchCancellationInsideABlock: the context also ends a launch
// whose one block runs for long.
func TestCPULaunchCancellationInsideABlock(t *testing.T) {
	d := runtime.CPU()
	f := must(d.Load(longLoop()))(t)
	out := must(runtime.Alloc[uint32](d, 1))(t)
	ctx, stop := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer stop()
	start := time.Now()
	err := d.Launch(f, runtime.LaunchConfig{Context: ctx}, out)
	took := time.Since(start)
	t.Logf("cancelled after %v: %v", took, err)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "long_loop cancelled in block 0") {
		t.Errorf("launch past its deadline: %v, want an error wrapping context.DeadlineExceeded", err)
	}
}
