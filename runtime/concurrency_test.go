package runtime_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
)

// TestCPUConcurrentUse launches, copies, fills and frees on one CPU device
// from several goroutines, some on a buffer they share: every call must
// succeed (or fail because the buffer has been freed), results must be
// right, and under -race nothing may race.
func TestCPUConcurrentUse(t *testing.T) {
	d := runtime.CPU()
	f := must(d.Load(vectorAdd()))(t)
	const n = 1000
	ones := make([]float32, n)
	for i := range ones {
		ones[i] = 1
	}
	shared := must(runtime.FromSlice(d, ones))(t)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	for w := range 6 {
		wg.Go(func() {
			for round := range 20 {
				y, err := runtime.Alloc[float32](d, n)
				if err == nil {
					err = d.Launch(f, runtime.LaunchConfig{}, shared, shared.View(0, n), y)
				}
				var got []float32
				if err == nil {
					got, err = y.ToSlice()
				}
				if err != nil {
					fail(fmt.Errorf("worker %d round %d: %w", w, round, err))
					return
				}
				for i, v := range got {
					if v != 2 {
						fail(fmt.Errorf("worker %d round %d: y[%d] = %v, want 2", w, round, i, v))
						return
					}
				}
				if err := errorsOf(shared.Fill(1), shared.View(w, 1).CopyFrom([]float32{1}), y.Free()); err != nil {
					fail(err)
					return
				}
				if _, err := shared.ToSlice(); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}

	// Free the shared buffer while others launch on it.
	errs = nil
	for w := range 4 {
		wg.Go(func() {
			y := must(runtime.Alloc[float32](d, n))(t)
			for {
				err := d.Launch(f, runtime.LaunchConfig{}, shared, shared, y)
				if err != nil {
					if !strings.Contains(err.Error(), "freed") {
						fail(fmt.Errorf("worker %d: %w", w, err))
					}
					return
				}
			}
		})
	}
	if err := shared.Free(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}
