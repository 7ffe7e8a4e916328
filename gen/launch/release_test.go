package launch_test

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/obsidian-go/obsidian/examples/vecadd"
	"github.com/obsidian-go/obsidian/runtime"
)

// trackedDevice is a CPU device whose collection a test can watch.
type trackedDevice struct{ runtime.Device }

// collectUntil runs the garbage collector until done reports true, for at
// most ten seconds, and reports whether it did.
func collectUntil(done func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		goruntime.GC()
		if done() {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// TestKernelReleasesClosedDevices launches on many CPU devices, closing
// each: the kernel's cache must let every one of them be collected.
func TestKernelReleasesClosedDevices(t *testing.T) {
	k := kernelOf(t, addOne(1))
	const devices = 500
	watched := make([]weak.Pointer[trackedDevice], devices)
	for i := range devices {
		dev := &trackedDevice{runtime.CPU()}
		watched[i] = weak.Make(dev)
		in, _ := runtime.FromSlice[uint32](dev, []uint32{1, 2, 3})
		out, _ := runtime.Alloc[uint32](dev, 3)
		if err := k.Launch(dev, runtime.LaunchConfig{}, blocks, in, out); err != nil {
			t.Fatal(err)
		}
		if got, _ := out.ToSlice(); fmt.Sprint(got) != "[2 3 4]" {
			t.Fatalf("device %d: got %v", i, got)
		}
		if err := dev.Close(); err != nil {
			t.Fatal(err)
		}
	}
	alive := func() int {
		n := 0
		for _, w := range watched {
			if w.Value() != nil {
				n++
			}
		}
		return n
	}
	if !collectUntil(func() bool { return alive() == 0 && k.CachedDevices() == 0 }) {
		t.Errorf("after %d closed devices, %d are still alive and the cache has %d entries", devices, alive(), k.CachedDevices())
	}
}

// TestGeneratedLauncherDoesNotGrowTheHeap launches a generated launcher on
// 20 000 CPU devices, closing each, and checks the heap stays as it was
// after the first thousand.
func TestGeneratedLauncherDoesNotGrowTheHeap(t *testing.T) {
	launchOn := func(n int) {
		for range n {
			dev := runtime.CPU()
			a, _ := runtime.FromSlice(dev, []float32{1, 2})
			b, _ := runtime.FromSlice(dev, []float32{3, 4})
			sum, _ := runtime.Alloc[float32](dev, 2)
			if err := vecadd.Vecadd(dev, runtime.LaunchConfig{}, a, b, sum); err != nil {
				t.Fatal(err)
			}
			if got, _ := sum.ToSlice(); got[0] != 4 || got[1] != 6 {
				t.Fatalf("got %v", got)
			}
			if err := dev.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	heap := func() uint64 {
		var m goruntime.MemStats
		goruntime.GC()
		goruntime.GC()
		goruntime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	launchOn(1000)
	before := heap()
	launchOn(19000)
	after := heap()
	t.Logf("heap after 1000 devices: %d bytes; after 20000: %d bytes", before, after)
	if after > before+1<<20 {
		t.Errorf("the heap grew by %d bytes over 19 000 closed devices", after-before)
	}
}

// TestKernelConcurrentLaunches launches one kernel from several goroutines,
// each on CPU devices of its own that it closes as it goes, while the
// garbage collector runs: every launch on an open device must succeed,
// every one on a closed device must fail.
func TestKernelConcurrentLaunches(t *testing.T) {
	k := kernelOf(t, addOne(1))
	stop := make(chan struct{})
	collector := make(chan struct{})
	go func() {
		defer close(collector)
		for {
			select {
			case <-stop:
				return
			default:
				goruntime.GC()
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				dev := runtime.CPU()
				in, _ := runtime.FromSlice[uint32](dev, []uint32{uint32(g), uint32(i)})
				out, _ := runtime.Alloc[uint32](dev, 2)
				for range 3 {
					if err := k.Launch(dev, runtime.LaunchConfig{}, blocks, in, out); err != nil {
						errs <- fmt.Errorf("goroutine %d, device %d: %w", g, i, err)
						return
					}
				}
				if got, _ := out.ToSlice(); got[0] != uint32(g)+1 || got[1] != uint32(i)+1 {
					errs <- fmt.Errorf("goroutine %d, device %d: got %v", g, i, got)
					return
				}
				if i%2 == 0 {
					dev.Close()
					if err := k.Launch(dev, runtime.LaunchConfig{}, blocks, in, out); err == nil || !strings.Contains(err.Error(), "closed") {
						errs <- fmt.Errorf("goroutine %d: a launch on closed device %d: %v, want an error saying it is closed", g, i, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-collector
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
