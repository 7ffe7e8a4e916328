package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
)

// addConstOnGPU launches addConst and, when check is set, compares the
// result with plain Go.
func addConstOnGPU(g *runtime.GPU, f runtime.Function, host []uint32, c uint32, check bool) error {
	in, err := runtime.FromSlice(g, host)
	if err != nil {
		return err
	}
	defer func() { _ = in.Free() }()
	out, err := runtime.Alloc[uint32](g, len(host))
	if err != nil {
		return err
	}
	defer func() { _ = out.Free() }()
	if err := g.Launch(f, runtime.LaunchConfig{}, in, out, c); err != nil {
		return err
	}
	if !check {
		return nil
	}
	got, err := out.ToSlice()
	if err != nil {
		return err
	}
	for i, v := range got {
		if want := host[i] + c; v != want {
			return fmt.Errorf("out[%d] of %d = %d, want %d", i, len(host), v, want)
		}
	}
	return nil
}

// gpuLeakTolerance is how much free GPU memory may differ after every
// buffer has been freed: one 2 MiB page of the driver's allocator, which
// may keep a page it carved small allocations from.
const gpuLeakTolerance = 2 << 20

// TestGPUManyLaunchesNoLeak makes 10^5 launches from 16 goroutines, each on
// fresh buffers of a random size (0 to 2^16 elements) that are freed right
// after; one launch in 16 is checked against plain Go. Every call must
// succeed, and the GPU's free memory must come back to where it started.
func TestGPUManyLaunchesNoLeak(t *testing.T) {
	g := gpuForTest(t)
	r := testRand(t)
	f := must(g.Load(addConst()))(t)
	if err := errorsOf(addConstOnGPU(g, f, randomUints(r, 1000), 1, true), g.Synchronize()); err != nil {
		t.Fatal(err)
	}
	before, _, err := g.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	const workers, maxLen = 16, 1 << 16
	launches := 100000
	if testing.Short() {
		launches = 2000 // under a memory checker every launch is checked, and slow
	}
	var (
		wg      sync.WaitGroup
		checked atomic.Int64
		mu      sync.Mutex
		errs    []error
	)
	start := time.Now()
	for w := range workers {
		seed := r.Uint64()
		wg.Go(func() {
			wr := rand.New(rand.NewPCG(seed, ^seed))
			host := randomUints(wr, 2*maxLen)
			for i := range launches / workers {
				n := wr.IntN(maxLen + 1)
				off := wr.IntN(maxLen)
				check := i%16 == 0
				if err := addConstOnGPU(g, f, host[off:off+n], wr.Uint32(), check); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("worker %d launch %d (%d elements): %w", w, i, n, err))
					mu.Unlock()
					return
				}
				if check {
					checked.Add(1)
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if err := g.Synchronize(); err != nil {
		t.Fatal(err)
	}
	after, _, err := g.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d launches from %d goroutines in %v (%d checked); free memory before %d, after %d bytes (%+d)",
		launches, workers, took, checked.Load(), before, after, int64(after)-int64(before))
	if before > after+gpuLeakTolerance {
		t.Errorf("%d launches lost %d bytes of device memory", launches, before-after)
	}
}

// TestGPUAllocBeyondDevice asks for twice the GPU's memory, and for all of
// it (more than is free): both must fail with an error wrapping
// ErrOutOfMemory that names the size and the GPU, and the GPU must go on
// working.
func TestGPUAllocBeyondDevice(t *testing.T) {
	g := gpuForTest(t)
	r := testRand(t)
	_, total, err := g.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	for _, bytes := range []uint64{2 * total, total} {
		n := int(bytes / 4)
		_, err := runtime.Alloc[uint32](g, n)
		t.Logf("asking for %d bytes of %d: %v", bytes, total, err)
		if !errors.Is(err, runtime.ErrOutOfMemory) {
			t.Errorf("allocating %d bytes on a GPU of %d: %v, want an error wrapping ErrOutOfMemory", bytes, total, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, fmt.Sprint(4*n)) || !strings.Contains(msg, g.Name()) {
			t.Errorf("the error does not name the size (%d bytes) and the GPU (%s): %v", 4*n, g.Name(), err)
		}
	}
	f := must(g.Load(addConst()))(t)
	if err := addConstOnGPU(g, f, randomUints(r, 100003), r.Uint32(), true); err != nil {
		t.Errorf("after the refused allocations: %v", err)
	}
}

// TestGPUDiskCacheDetectsCorruption damages the disk cache entry of a
// kernel in two ways: a new GPU handle must reject it, compile the kernel
// again, run it correctly, and replace the entry so that the next handle
// reads it from disk.
func TestGPUDiskCacheDetectsCorruption(t *testing.T) {
	gpuForTest(t)
	r := testRand(t)
	for _, damage := range []struct {
		name string
		do   func([]byte) []byte
	}{
		{"a byte of the image altered", func(b []byte) []byte { b[len(b)*2/3] ^= 0x20; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)-len(b)/3] }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			dir := t.TempDir()
			first := must(runtime.Open(0))(t)
			first.SetCacheDir(dir)
			if _, err := first.Load(reverseBlocks()); err != nil {
				t.Fatal(err)
			}
			_ = first.Close()
			entries, err := filepath.Glob(filepath.Join(dir, "*"))
			if err != nil || len(entries) != 1 {
				t.Fatalf("cache folder holds %v (%v), want one entry", entries, err)
			}
			entry := must(os.ReadFile(entries[0]))(t)
			if err := os.WriteFile(entries[0], damage.do(entry), 0o644); err != nil {
				t.Fatal(err)
			}

			g := must(runtime.Open(0))(t)
			defer func() { _ = g.Close() }()
			g.SetCacheDir(dir)
			f := must(g.Load(reverseBlocks()))(t)
			if s := g.CacheStats(); s.Compiles != 1 || s.DiskRejects != 1 || s.DiskHits != 0 {
				t.Errorf("loading from the damaged cache: %+v, want one reject and one compile", s)
			}
			in := randomUints(r, 5000)
			x, out := must(runtime.FromSlice(g, in))(t), must(runtime.Alloc[uint32](g, len(in)))(t)
			if err := g.Launch(f, runtime.LaunchConfig{}, x, out); err != nil {
				t.Fatal(err)
			}
			got, want := must(out.ToSlice())(t), reversedBlocks(in)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("out[%d] = %d, want %d", i, got[i], want[i])
				}
			}

			next := must(runtime.Open(0))(t)
			defer func() { _ = next.Close() }()
			next.SetCacheDir(dir)
			if _, err := next.Load(reverseBlocks()); err != nil {
				t.Fatal(err)
			}
			if s := next.CacheStats(); s.DiskHits != 1 || s.Compiles != 0 {
				t.Errorf("loading after the entry was replaced: %+v, want a disk hit", s)
			}
		})
	}
}

// TestGPULaunchHonoursCancelledContext launches with a context that is
// already done: nothing may run.
func TestGPULaunchHonoursCancelledContext(t *testing.T) {
	g := gpuForTest(t)
	f := must(g.Load(addConst()))(t)
	in := must(runtime.FromSlice(g, []uint32{1, 2, 3}))(t)
	out := must(runtime.FromSlice(g, []uint32{9, 9, 9}))(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := g.Launch(f, runtime.LaunchConfig{Context: ctx}, in, out, uint32(1)); !errors.Is(err, context.Canceled) {
		t.Errorf("launch with a cancelled context: %v, want an error wrapping context.Canceled", err)
	}
	if got := must(out.ToSlice())(t); got[0] != 9 || got[2] != 9 {
		t.Errorf("a cancelled launch wrote %v", got)
	}
	if err := g.Launch(f, runtime.LaunchConfig{Context: context.Background()}, in, out, uint32(1)); err != nil {
		t.Fatal(err)
	}
	if got := must(out.ToSlice())(t); got[0] != 2 || got[2] != 4 {
		t.Errorf("launch with a live context computed %v", got)
	}
}
