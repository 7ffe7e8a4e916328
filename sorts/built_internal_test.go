package sorts

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestBuiltBuildsEachKernelOnce checks that callers of built, at once on
// many goroutines, share one build of each key's kernel, its error too, and
// that another key builds its own.
func TestBuiltBuildsEachKernelOnce(t *testing.T) {
	var builds atomic.Int32
	build := func() *dsl.Kernel { builds.Add(1); return kernels.RangeKernel() }
	var bad atomic.Int32
	broken := func() *dsl.Kernel { bad.Add(1); return dsl.NewKernel("broken", 32) } // no Body
	type testKey struct{ name string }
	kernelsGot := make([]*ir.Kernel, 16)
	errs := make([]error, len(kernelsGot))
	var wg sync.WaitGroup
	for i := range kernelsGot {
		wg.Go(func() {
			kernelsGot[i], _ = built(testKey{"range"}, build)
			_, errs[i] = built(testKey{"broken"}, broken)
		})
	}
	wg.Wait()
	for i, k := range kernelsGot {
		if k == nil || k != kernelsGot[0] {
			t.Fatalf("caller %d got kernel %p, caller 0 %p: want one kernel for one key", i, k, kernelsGot[0])
		}
		if errs[i] == nil || !errors.Is(errs[i], errs[0]) {
			t.Errorf("caller %d of the broken kernel got %v, caller 0 %v", i, errs[i], errs[0])
		}
	}
	if builds.Load() != 1 || bad.Load() != 1 {
		t.Errorf("%d builds of one kernel and %d of a broken one by %d callers, want 1 each", builds.Load(), bad.Load(), len(kernelsGot))
	}
	if k, err := built(testKey{"range again"}, build); err != nil || k == kernelsGot[0] || builds.Load() != 2 {
		t.Errorf("another key gave %p (%v) after %d builds, want a kernel of its own, built once more", k, err, builds.Load())
	}
}
