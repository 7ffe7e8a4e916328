package runtime_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

func TestCPUVectorAdd(t *testing.T) {
	r := testRand(t)
	d := runtime.CPU()
	const n = 1000
	a, b := randomFloats(r, n), randomFloats(r, n)
	f := must(d.Load(vectorAdd()))(t)
	if f.Name() != "vadd" || f.Threads() != 256 || len(f.Signature()) != 3 {
		t.Errorf("loaded %s with %d threads and signature %s", f.Name(), f.Threads(), f.Signature())
	}
	out := must(runtime.Alloc[float32](d, n))(t)
	if err := d.Launch(f, runtime.LaunchConfig{}, must(runtime.FromSlice(d, a))(t), must(runtime.FromSlice(d, b))(t), out); err != nil {
		t.Fatal(err)
	}
	got := must(out.ToSlice())(t)
	for i := range got {
		if got[i] != a[i]+b[i] {
			t.Fatalf("out[%d] = %v, want %v + %v", i, got[i], a[i], b[i])
		}
	}
}

func TestCPUReverseThroughSharedMemory(t *testing.T) {
	r := testRand(t)
	d := runtime.CPU()
	f := must(d.Load(reverseBlocks()))(t)
	if f.SharedBytes() < 256*4 {
		t.Errorf("SharedBytes() = %d, want at least 1024", f.SharedBytes())
	}
	for _, n := range []int{1, 256, 700} {
		in := randomUints(r, n)
		out := must(runtime.Alloc[uint32](d, n))(t)
		if err := d.Launch(f, runtime.LaunchConfig{}, must(runtime.FromSlice(d, in))(t), out); err != nil {
			t.Fatal(err)
		}
		got, want := must(out.ToSlice())(t), reversedBlocks(in)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, got[i], want[i])
			}
		}
	}
}

func TestCPUScalarsAndExplicitBlocks(t *testing.T) {
	d := runtime.CPU()
	f := must(d.Load(mixScalars()))(t)
	out := must(runtime.Alloc[int64](d, 300))(t)
	for _, cfg := range []runtime.LaunchConfig{{}, {Blocks: 1}, {Blocks: 1000}} {
		if err := out.Fill(-99); err != nil {
			t.Fatal(err)
		}
		if err := d.Launch(f, cfg, out, int64(1)<<40, true, int32(-5)); err != nil {
			t.Fatal(err)
		}
		got := must(out.ToSlice())(t)
		for i, v := range got {
			if want := int64(1)<<40 + int64(i); v != want {
				t.Fatalf("blocks %d: out[%d] = %d, want %d", cfg.Blocks, i, v, want)
			}
		}
	}
	if err := d.Launch(f, runtime.LaunchConfig{}, out.View(100, 10), int64(0), false, int32(-5)); err != nil {
		t.Fatal(err)
	}
	if got := must(out.View(99, 12).ToSlice())(t); got[0] != 1<<40+99 || got[1] != -5 || got[10] != -5+9 || got[11] != 1<<40+110 {
		t.Errorf("launch on a view wrote %v around it", got)
	}
}

// A failed launch of a Function, its first (which compiles the kernel for
// the evaluator) or a later one, leaves the Function as it was: the
// launches after it compute their results.
func TestCPULaunchesAfterAFailedLaunch(t *testing.T) {
	r := testRand(t)
	d := runtime.CPU()
	const n = 1000
	a, b := randomFloats(r, n), randomFloats(r, n)
	f := must(d.Load(vectorAdd()))(t)
	bufA, bufB := must(runtime.FromSlice(d, a))(t), must(runtime.FromSlice(d, b))(t)
	for round := range 3 {
		out := must(runtime.Alloc[float32](d, n))(t)
		err := d.Launch(f, runtime.LaunchConfig{}, bufA.View(0, n-10), bufB, out)
		if want := "read of a[990] out of bounds"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("round %d: a launch with a short: %v, want an error saying %q", round, err, want)
		}
		if err := d.Launch(f, runtime.LaunchConfig{}, bufA, bufB, out); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got := must(out.ToSlice())(t)
		for i := range got {
			if got[i] != a[i]+b[i] {
				t.Fatalf("round %d: out[%d] = %v, want %v + %v", round, i, got[i], a[i], b[i])
			}
		}
	}
}

// racy has every thread write its own index to out[0].
func racy() *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output)
	i := &ir.Var{Name: "i", T: ir.Uint32}
	return &ir.Kernel{
		Name:    "racy",
		Threads: 64,
		Params:  []ir.Param{{Array: out}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: u32(64),
			Body: []ir.Stmt{&ir.Store{Array: out, Index: u32(0), Value: i, Pos: ir.Pos{File: "racy.go", Line: 7}}}}},
		Blocks: u32(1),
	}
}

func TestCPUReportsRaces(t *testing.T) {
	d := runtime.CPU()
	f := must(d.Load(racy()))(t)
	err := d.Launch(f, runtime.LaunchConfig{}, must(runtime.Alloc[uint32](d, 1))(t))
	if err == nil || !strings.Contains(err.Error(), "racy.go:7") {
		t.Errorf("racy launch: %v, want an error at racy.go:7", err)
	}
}

func TestCPUPipelineWithStreamAndEvents(t *testing.T) {
	d := runtime.CPU()
	add := must(d.Load(vectorAdd()))(t)
	s := must(d.NewStream())(t)
	start, end := must(d.NewEvent())(t), must(d.NewEvent())(t)
	if _, err := end.Since(start); err == nil {
		t.Error("timing unrecorded events succeeded")
	}
	x := must(runtime.FromSlice(d, []float32{1, 2, 3}))(t)
	y := must(runtime.Alloc[float32](d, 3))(t)
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	// y = x + x; then x = y + y, four times: x ends 256 times as large.
	for range 4 {
		if err := d.Launch(add, runtime.LaunchConfig{Stream: s}, x, x, y); err != nil {
			t.Fatal(err)
		}
		if err := d.Launch(add, runtime.LaunchConfig{Stream: s}, y, y, x); err != nil {
			t.Fatal(err)
		}
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := errorsOf(s.Synchronize(), end.Synchronize(), d.Synchronize()); err != nil {
		t.Fatal(err)
	}
	if got := must(x.ToSlice())(t); !slices.Equal(got, []float32{256, 512, 768}) {
		t.Errorf("after the pipeline x = %v", got)
	}
	if took := must(end.Since(start))(t); took <= 0 {
		t.Errorf("pipeline took %v", took)
	}
	other := must(runtime.CPU().NewStream())(t)
	if err := start.Record(other); err == nil {
		t.Error("recording on another device's stream succeeded")
	}
	if err := errorsOf(s.Close(), start.Close(), end.Close(), d.Close()); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(add, runtime.LaunchConfig{}, x, x, y); err == nil {
		t.Error("launching on a closed device succeeded")
	}
	if err := d.Close(); err == nil {
		t.Error("closing twice succeeded")
	}
}

func TestCPULoadRejectsInvalidKernels(t *testing.T) {
	k := vectorAdd()
	k.Threads = 0
	if _, err := runtime.CPU().Load(k); err == nil {
		t.Error("loading a kernel of 0 threads succeeded")
	}
}

// errorsOf returns the first non-nil error.
func errorsOf(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
