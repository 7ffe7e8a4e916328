package runtime

import (
	goruntime "runtime"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/obsidian-go/obsidian/ir"
)

// BenchmarkLaunchGoWork times the Go side of GPU.Launch without a GPU:
// the driver's cuCtxSetCurrent and cuLaunchKernel are replaced by C's
// strlen of an empty string, which returns 0 (success) at once, so that
// what is left is the argument checks, the held memory, the slots handed
// to the driver and the two calls through purego. A launch of a kernel of
// two buffers and two scalars, as the sorts' one-block kernels take.
func BenchmarkLaunchGoWork(b *testing.B) {
	libc, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW)
	if err != nil {
		b.Skipf("no C library to stand in for the driver: %v", err)
	}
	addr, err := purego.Dlsym(libc, "strlen")
	if err != nil {
		b.Skipf("no strlen: %v", err)
	}
	strlen := &libFunc{name: "strlen", addr: addr}
	empty := new([8]byte) // "": the handles the stand-in calls read
	handle := uintptr(unsafe.Pointer(empty))
	g := &GPU{drv: &driverAPI{ctxSetCurrent: strlen, launchKernel: strlen}, ctx: handle}
	sig := Signature{{Name: "keysIn", Type: ir.Uint32, Array: true}, {Name: "keysOut", Type: ir.Uint32, Array: true},
		{Name: "begin", Type: ir.Uint32}, {Name: "end", Type: ir.Uint32}}
	f := &gpuFunction{gpu: g, fn: handle, name: "sort", sig: sig, threads: 128, grid: newGridCount(nil)}
	buffer := func(ptr uint64) *Buffer[uint32] {
		m := &Mem{device: g, elem: ir.Uint32, n: 1024, store: &gpuStorage{gpu: g, ptr: ptr, size: 4096}}
		return &Buffer[uint32]{mem: m, n: 1024}
	}
	args := []any{buffer(1 << 20), buffer(2 << 20), uint32(0), uint32(6)}
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Launch(f, LaunchConfig{Blocks: 1}, args...); err != nil {
			b.Fatal(err)
		}
	}
	goruntime.KeepAlive(empty)
}
