package dsl_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// copyAsyncPer is the number of elements each thread of copyAsyncKernel
// copies.
const copyAsyncPer = 3

// copyAsyncKernel reverses each tile of in (threads × copyAsyncPer
// elements; the last one may be short) into out: each thread copies
// elements of its tile into shared memory asynchronously, element j of a
// tile of count elements to slot count-1-j, and after the barrier reads
// other threads' slots back in order.
func copyAsyncKernel[T dsl.Number](threads int) *dsl.Kernel {
	tile := uint32(threads * copyAsyncPer)
	k := dsl.NewKernel(fmt.Sprintf("copyAsync_%v_%d", dsl.TypeOf[T](), threads), threads)
	in := dsl.Input[T](k, "in")
	out := dsl.Output[T](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), dsl.N(tile)), func(b *dsl.Block, bid dsl.U32) {
			base := dsl.Let(b, bid.Mul(dsl.N(tile))).Exp
			count := dsl.Let(b, in.Len().Sub(base).Min(dsl.N(tile))).Exp
			sh := dsl.Shared[T](b, int(tile))
			b.ForAll(count, func(t *dsl.Thread, j dsl.U32) {
				sh.CopyAsync(t, count.Sub(dsl.N(1)).Sub(j), in, base.Add(j))
			})
			b.Sync()
			b.ForAll(count, func(t *dsl.Thread, j dsl.U32) { out.Store(t, base.Add(j), sh.At(j)) })
		})
	})
	return k
}

// reversedTiles is copyAsyncKernel's output for in, in Go.
func reversedTiles[T any](in []T, tile int) []T {
	out := make([]T, len(in))
	for base := 0; base < len(in); base += tile {
		count := min(tile, len(in)-base)
		for j := range count {
			out[base+j] = in[base+count-1-j]
		}
	}
	return out
}

// checkCopyAsync runs copyAsyncKernel on dev over random elements of random
// lengths (whole tiles and not), for 4- and 8-byte elements, and compares
// every output with Go's.
func checkCopyAsync(t *testing.T, dev runtime.Device) {
	rng := rand.New(rand.NewPCG(proptest.Seed(t), 11))
	for _, threads := range []int{32, 128, 256} {
		tile := threads * copyAsyncPer
		for _, n := range []int{1, tile, tile + 1, 1 + rng.IntN(20*tile)} {
			u32 := make([]uint32, n)
			f64 := make([]float64, n)
			for i := range n {
				u32[i], f64[i] = rng.Uint32(), rng.NormFloat64()
			}
			checkCopyAsyncOf(t, dev, threads, u32)
			checkCopyAsyncOf(t, dev, threads, f64)
		}
	}
}

// checkCopyAsyncOf runs copyAsyncKernel of threads threads on dev over in
// and compares its output with reversedTiles.
func checkCopyAsyncOf[T dsl.Number](t *testing.T, dev runtime.Device, threads int, in []T) {
	t.Helper()
	kernel := copyAsyncKernel[T](threads)
	got := launchOneToOne[T, T](t, dev, kernel, in, len(in))
	want := reversedTiles(in, threads*copyAsyncPer)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s, %d threads, %d elements: out[%d] = %v, want %v", kernel.Name(), threads, len(in), i, got[i], want[i])
		}
	}
}

// TestCopyAsyncOnTheCPU runs copyAsyncKernel in the evaluator, which also
// checks that no thread touches a copy's element before the barrier.
func TestCopyAsyncOnTheCPU(t *testing.T) { checkCopyAsync(t, runtime.CPU()) }

// TestGPUCopyAsync runs copyAsyncKernel's CUDA (cp.async) on the GPU.
func TestGPUCopyAsync(t *testing.T) { checkCopyAsync(t, gputest.Open(t)) }

// TestCopyAsyncPrintsCopiesAndWaits checks the CUDA of a kernel that copies
// asynchronously: each copy calls the helper of its element's size, and
// each __syncthreads waits for the thread's copies first; a kernel that
// copies nothing so has no wait.
func TestCopyAsyncPrintsCopiesAndWaits(t *testing.T) {
	for _, c := range []struct {
		kernel *dsl.Kernel
		copy   string
	}{{copyAsyncKernel[uint32](128), "__obs_copy_async4(&"}, {copyAsyncKernel[float64](128), "__obs_copy_async8(&"}} {
		src := cudaOf(t, c.kernel)
		if !strings.Contains(src, c.copy) {
			t.Errorf("%s copies without %s:\n%s", c.kernel.Name(), c.copy, src)
		}
		lines := strings.Split(src, "\n")
		syncs := 0
		for i, l := range lines {
			if strings.TrimSpace(l) == "__syncthreads();" {
				syncs++
				if i == 0 || strings.TrimSpace(lines[i-1]) != "__obs_copy_async_wait();" {
					t.Errorf("%s: line %d, __syncthreads() without waiting for the copies first:\n%s", c.kernel.Name(), i+1, src)
				}
			}
		}
		if syncs == 0 {
			t.Errorf("%s has no barrier:\n%s", c.kernel.Name(), src)
		}
	}
	plain := cudaOf(t, threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) { out.Store(t, i, in.At(i)) }))
	if strings.Contains(plain, "copy_async") {
		t.Errorf("a kernel that copies nothing asynchronously mentions the copies:\n%s", plain)
	}
}

// cudaOf builds, compiles and prints k.
func cudaOf(t *testing.T, k *dsl.Kernel) string {
	t.Helper()
	kernel, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := codegen.Compile(kernel, codegen.DefaultTarget)
	if err != nil {
		t.Fatal(err)
	}
	return codegen.Print(compiled)
}

// TestCopyAsyncRaces covers the accesses to a copy's element before the
// barrier it lands by, which the evaluator reports as races naming the
// copy, and a read after the barrier, which it does not.
func TestCopyAsyncRaces(t *testing.T) {
	for _, c := range []struct {
		name string
		step func(t *dsl.Thread, i dsl.U32, sh, in, out dsl.Array[uint32])
		want string
	}{
		{"its own thread reads it", func(t *dsl.Thread, i dsl.U32, sh, in, out dsl.Array[uint32]) {
			sh.CopyAsync(t, i, in, i)
			out.Store(t, i, sh.At(i)) // bad: before the barrier
		}, "the asynchronous copy of thread"},
		{"its own thread overwrites it", func(t *dsl.Thread, i dsl.U32, sh, in, out dsl.Array[uint32]) {
			sh.CopyAsync(t, i, in, i)
			sh.Store(t, i, dsl.N(7)) // bad: the copy may land after it
		}, "the asynchronous copy of thread"},
		{"two threads copy to it", func(t *dsl.Thread, i dsl.U32, sh, in, out dsl.Array[uint32]) {
			sh.CopyAsync(t, i.Shr(dsl.N(1)), in, i) // bad: threads 2k and 2k+1 copy to k
		}, "data race on sh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				sh := dsl.Shared[uint32](b, 256)
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { c.step(t, i, sh, in, out) })
			})
			err := launchBad(t, k, 256, 1)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "copyasync_test.go") {
				t.Errorf("got %v, want a race at this file's line, naming %q", err, c.want)
			}
		})
	}
	k := copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
		sh := dsl.Shared[uint32](b, 256)
		b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { sh.CopyAsync(t, i, in, i) })
		b.Sync()
		b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, sh.At(dsl.N(255).Sub(i))) })
	})
	if err := launchBad(t, k, 256, 1); err != nil {
		t.Errorf("reads after the barrier: %v", err)
	}
}

// TestCopyAsyncRejected covers the copies Build refuses: into global
// memory, from shared memory, of elements cp.async does not copy; each
// error names this file's line.
func TestCopyAsyncRejected(t *testing.T) {
	for _, c := range []struct {
		name   string
		kernel func() *dsl.Kernel
		want   string
	}{
		{"into global memory", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) { out.CopyAsync(t, i, in, i) })
		}, "it copies into shared memory"},
		{"from shared memory", func() *dsl.Kernel {
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				from, to := dsl.Shared[uint32](b, 256), dsl.Shared[uint32](b, 256)
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { to.CopyAsync(t, i, from, i) })
			})
		}, "it copies from global memory"},
		{"of 2-byte elements", func() *dsl.Kernel {
			k := dsl.NewKernel("narrow", 256)
			in := dsl.Input[uint16](k, "input")
			k.Body(func(g *dsl.Grid) {
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
					sh := dsl.Shared[uint16](b, 256)
					b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { sh.CopyAsync(t, i, in, i) })
				})
			})
			return k
		}, "it copies elements of [4 8] bytes"},
		{"from a zero array", func() *dsl.Kernel {
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				sh := dsl.Shared[uint32](b, 256)
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { sh.CopyAsync(t, i, dsl.Array[uint32]{}, i) })
			})
		}, "CopyAsync from"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.kernel().Build()
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "copyasync_test.go") {
				t.Errorf("got %v, want an error at this file's line saying %q", err, c.want)
			}
		})
	}
}
