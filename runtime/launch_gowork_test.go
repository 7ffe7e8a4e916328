package runtime

import (
	goruntime "runtime"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/obsidian-go/obsidian/ir"
)

// standInLaunch returns a GPU whose driver's cuCtxSetCurrent and
// cuLaunchKernel are C's strlen of an empty string, which returns 0
// (success) at once, and a kernel of two buffers and two scalars on it
// with arguments for it, as the sorts' one-block kernels take: what a
// launch of it does is the argument checks, the held memory, the slots
// handed to the driver and the calls through purego. keep must stay alive
// while the GPU is used.
func standInLaunch(tb testing.TB) (g *GPU, f *gpuFunction, args []any, keep *[8]byte) {
	tb.Helper()
	libc, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW)
	if err != nil {
		tb.Skipf("no C library to stand in for the driver: %v", err)
	}
	addr, err := purego.Dlsym(libc, "strlen")
	if err != nil {
		tb.Skipf("no strlen: %v", err)
	}
	strlen := &libFunc{name: "strlen", addr: addr}
	keep = new([8]byte) // "": the handles the stand-in calls read
	handle := uintptr(unsafe.Pointer(keep))
	g = &GPU{drv: &driverAPI{ctxSetCurrent: strlen, launchKernel: strlen}, ctx: handle}
	sig := Signature{{Name: "keysIn", Type: ir.Uint32, Array: true}, {Name: "keysOut", Type: ir.Uint32, Array: true},
		{Name: "begin", Type: ir.Uint32}, {Name: "end", Type: ir.Uint32}}
	f = &gpuFunction{gpu: g, fn: handle, name: "sort", sig: sig, threads: 128, grid: newGridCount(nil)}
	buffer := func(ptr uint64) *Buffer[uint32] {
		m := &Mem{device: g, elem: ir.Uint32, n: 1024, store: &gpuStorage{gpu: g, ptr: ptr, size: 4096}}
		return &Buffer[uint32]{mem: m, n: 1024}
	}
	return g, f, []any{buffer(1 << 20), buffer(2 << 20), uint32(0), uint32(6)}, keep
}

// BenchmarkLaunchGoWork times the Go side of GPU.Launch without a GPU
// (see standInLaunch).
func BenchmarkLaunchGoWork(b *testing.B) {
	g, f, args, keep := standInLaunch(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Launch(f, LaunchConfig{Blocks: 1}, args...); err != nil {
			b.Fatal(err)
		}
	}
	goruntime.KeepAlive(keep)
}

// TestLaunchAllocatesNothing checks that a launch leaves no garbage: a
// program that launches small kernels in a loop would otherwise run the
// collector for the launches alone.
func TestLaunchAllocatesNothing(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector makes sync.Pool drop what it is given, so that pooled memory is allocated again")
	}
	g, f, args, keep := standInLaunch(t)
	allocs := testing.AllocsPerRun(200, func() {
		if err := g.Launch(f, LaunchConfig{Blocks: 1}, args...); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a launch allocated %.1f times, want none", allocs)
	}
	goruntime.KeepAlive(keep)
}
