package kernels_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestImportsNoRuntime checks that the kernels are DSL code only: the
// package depends on neither the runtime nor the evaluator.
func TestImportsNoRuntime(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != "github.com/obsidian-go/obsidian/sorts/kernels" {
		t.Fatalf("go list -deps did not list the package last: %q", deps)
	}
	for _, d := range deps {
		for _, banned := range []string{"github.com/obsidian-go/obsidian/runtime", "github.com/obsidian-go/obsidian/internal/eval"} {
			if d == banned || strings.HasPrefix(d, banned+"/") {
				t.Errorf("sorts/kernels depends on %s", d)
			}
		}
	}
}

// TestEveryKernelBuilds builds every kernel of the package and checks
// that their names are distinct.
func TestEveryKernelBuilds(t *testing.T) {
	ks := []*dsl.Kernel{kernels.HistogramKernel(), kernels.OccursKernel(), kernels.ScanKernel(10),
		kernels.SklanskyKernel(5), kernels.DistributeKernel(10), kernels.ReconstructKernel(), kernels.ReconstructOnceKernel(),
		kernels.RangeKernel(), kernels.GlobalOccursKernel(), kernels.PopcountKernel(), kernels.BitsReconstructKernel(),
		kernels.TileStartsKernel(), kernels.TileReconstructKernel(), kernels.TileTotalsKernel(), kernels.TileScanKernel(),
		kernels.GlobalHistogramWarpKernel(), kernels.GlobalOccursWarpKernel(), kernels.BitsReconstructWarpKernel(), kernels.BitsReconstructBlockKernel(),
		kernels.RadixBlockKernel[uint32, uint32](blockShape, kernels.KeysOnly, kernels.Ascending), kernels.RadixBlockKernel[float64, float32](blockShape, kernels.Pairs, kernels.Ascending),
		kernels.RadixBlockKernel[int32, uint32](blockShape, kernels.Positions, kernels.Ascending),
		kernels.BlockCountKernel(kernels.BlockCountShape{Threads: 512, PerThread: 16})}
	ks = append(ks, kernels.SharedHistogramKernels()...)
	ks = append(ks, kernels.SharedOccursKernels()...)
	if len(kernels.SharedHistogramKernels()) != len(kernels.HistogramShapes()) || len(kernels.SharedOccursKernels()) != len(kernels.BitsShapes()) {
		t.Error("the shared-table kernels and their shapes differ in number")
	}
	names := map[string]bool{}
	for _, k := range ks {
		built, err := k.Build()
		if err != nil {
			t.Errorf("%s: %v", k.Name(), err)
			continue
		}
		if names[built.Name] {
			t.Errorf("two kernels are named %s", built.Name)
		}
		names[built.Name] = true
	}
}

// TestWarpRanges checks the length of the histogram's warp ranges: two
// words per warp of 256-thread blocks of 16 keys per thread.
func TestWarpRanges(t *testing.T) {
	for _, c := range []struct{ keys, want int }{{0, 0}, {1, 16}, {4096, 16}, {4097, 32}, {1 << 25, 1 << 25 / 4096 * 16}} {
		if got := kernels.WarpRanges(c.keys); got != c.want {
			t.Errorf("WarpRanges(%d) = %d, want %d", c.keys, got, c.want)
		}
	}
}

// TestBlockCountKernelRejectsBadShapes checks that a block counting
// sort's shape of part of a warp or of no key a thread is an error naming
// the shape when the kernel is built.
func TestBlockCountKernelRejectsBadShapes(t *testing.T) {
	for _, shape := range []kernels.BlockCountShape{{Threads: 48, PerThread: 4}, {Threads: 64, PerThread: 0}} {
		_, err := kernels.BlockCountKernel(shape).Build()
		want := fmt.Sprintf("BlockCountKernel of %d threads of %d keys", shape.Threads, shape.PerThread)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("shape %+v: got %v, want an error naming %q", shape, err, want)
		}
	}
}
