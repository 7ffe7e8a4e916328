package runtime_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
)

// closedError reports whether err says that something has been closed.
func closedError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "has been closed")
}

// checkStreamAndEventClose closes a stream and an event of d twice and uses
// them after: the second Close and every use must fail with an error that
// says so.
func checkStreamAndEventClose(t *testing.T, d runtime.Device, f runtime.Function) {
	t.Helper()
	s := must(d.NewStream())(t)
	start, end := must(d.NewEvent())(t), must(d.NewEvent())(t)
	x := must(runtime.FromSlice(d, []float32{1, 2, 3}))(t)
	defer func() { _ = x.Free() }()
	if err := errorsOf(start.Record(s), d.Launch(f, runtime.LaunchConfig{Stream: s}, x, x, x), end.Record(s),
		end.Synchronize()); err != nil {
		t.Fatal(err)
	}
	if _, err := end.Since(start); err != nil {
		t.Fatal(err)
	}
	if err := errorsOf(s.Close(), end.Close()); err != nil {
		t.Fatal(err)
	}
	for what, err := range map[string]error{
		"closing a stream twice":          s.Close(),
		"closing an event twice":          end.Close(),
		"synchronizing a closed stream":   s.Synchronize(),
		"launching on a closed stream":    d.Launch(f, runtime.LaunchConfig{Stream: s}, x, x, x),
		"recording on a closed stream":    start.Record(s),
		"recording a closed event":        end.Record(nil),
		"synchronizing on a closed event": end.Synchronize(),
	} {
		if !closedError(err) {
			t.Errorf("%s: %v, want an error saying it has been closed", what, err)
		}
	}
	if _, err := end.Since(start); !closedError(err) {
		t.Errorf("timing to a closed event: %v, want an error saying it has been closed", err)
	}
	if _, err := start.Since(end); !closedError(err) {
		t.Errorf("timing from a closed event: %v, want an error saying it has been closed", err)
	}
	// The open event and the default stream still work.
	if err := errorsOf(start.Record(nil), start.Synchronize(), d.Synchronize(), start.Close()); err != nil {
		t.Error(err)
	}
	if got := must(x.ToSlice())(t); got[2] != 6 {
		t.Errorf("x[2] = %v after one doubling, want 6", got[2])
	}
}

func TestCPUStreamAndEventCloseOnce(t *testing.T) {
	d := runtime.CPU()
	checkStreamAndEventClose(t, d, must(d.Load(vectorAdd()))(t))
}

// checkBufferUseAfterClose closes d and uses a buffer made on it before:
// every copy, fill and free must fail with an error that says the device
// was closed, as the Device documentation has it.
func checkBufferUseAfterClose(t *testing.T, d runtime.Device) {
	t.Helper()
	x := must(runtime.FromSlice(d, []float32{1, 2, 3}))(t)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	_, read := x.ToSlice()
	for what, err := range map[string]error{
		"reading": read, "writing": x.CopyFrom([]float32{4, 5, 6}), "filling": x.Fill(7), "freeing": x.Free(),
	} {
		if !closedError(err) {
			t.Errorf("%s a buffer of a closed device: got %v, want an error saying it has been closed", what, err)
		}
	}
}

func TestCPUBufferUseAfterClose(t *testing.T) { checkBufferUseAfterClose(t, runtime.CPU()) }

func TestGPUStreamAndEventCloseOnce(t *testing.T) {
	g := gpuForTest(t)
	checkStreamAndEventClose(t, g, must(g.Load(vectorAdd()))(t))
}

// TestGPUCloseDuringUse closes GPUs while other goroutines launch, copy,
// allocate and load on them: each call must succeed or fail cleanly saying
// the GPU has been closed, and Close must return.
func TestGPUCloseDuringUse(t *testing.T) {
	for round := range 10 {
		g, err := runtime.Open(0)
		if err != nil {
			t.Skip(err.Error())
		}
		closeDuringUse(t, g, round)
		if t.Failed() {
			return
		}
	}
}

// closeDuringUse closes g after a while of concurrent use.
func closeDuringUse(t *testing.T, g *runtime.GPU, round int) {
	g.SetCacheDir("")
	f := must(g.Load(vectorAdd()))(t)
	var (
		wg        sync.WaitGroup
		successes atomic.Int64
		mu        sync.Mutex
		unclean   []error
	)
	failed := func(err error) bool {
		if err == nil {
			successes.Add(1)
			return false
		}
		if !closedError(err) {
			mu.Lock()
			unclean = append(unclean, err)
			mu.Unlock()
		}
		return true
	}
	const n = 1 << 12
	for range 12 {
		wg.Go(func() {
			x, err := runtime.FromSlice(g, make([]float32, n))
			if failed(err) {
				return
			}
			defer func() { _ = x.Free() }()
			for {
				if failed(g.Launch(f, runtime.LaunchConfig{}, x, x, x)) {
					return
				}
				if _, err := x.View(0, 1).ToSlice(); failed(err) {
					return
				}
				y, err := runtime.Alloc[float32](g, n)
				if failed(err) {
					return
				}
				_ = y.Free()
			}
		})
	}
	// A loader: each kernel has a new name, so it is compiled and loaded
	// while the cache's mutex is held.
	wg.Go(func() {
		for i := 0; ; i++ {
			k := vectorAdd()
			k.Name = fmt.Sprintf("vadd%d_%d", round, i)
			if _, err := g.Load(k); failed(err) {
				return
			}
		}
	})
	time.Sleep(time.Duration(20+10*round) * time.Millisecond)
	closed := make(chan error, 1)
	go func() { closed <- g.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("round %d: closing during use: %v", round, err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("round %d: Close did not return within a minute", round)
	}
	wg.Wait()
	if successes.Load() == 0 {
		t.Errorf("round %d: no call succeeded before Close", round)
	}
	if err := errors.Join(unclean...); err != nil {
		t.Errorf("round %d: calls failed other than by the GPU being closed:\n%v", round, err)
	}
	if _, err := runtime.Alloc[float32](g, 1); !closedError(err) {
		t.Errorf("round %d: allocating after Close: %v, want an error saying the GPU has been closed", round, err)
	}
}
