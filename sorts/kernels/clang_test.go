package kernels_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestClangCompilesTheTableKernelsAndBlockSort compiles the printed CUDA
// of the warp-combined table kernels, of block sorts of 32 and 64-bit
// keys, alone, in pairs and ranked by counters, and of radix sort passes
// (look-back windows of one tile and of eight, ranked by votes and by
// counters) and of rank sorts with clang in CUDA device mode, with
// codegen's prelude in place of the CUDA headers.
func TestClangCompilesTheTableKernelsAndBlockSort(t *testing.T) {
	clang, err := exec.LookPath("clang-14")
	if err != nil {
		t.Skip("clang-14 is not installed; CI installs it and runs this test")
	}
	dir := t.TempDir()
	prelude := filepath.Join(dir, "prelude.h")
	if err := os.WriteFile(prelude, []byte(codegen.Prelude()), 0o644); err != nil {
		t.Fatal(err)
	}
	ks := []*dsl.Kernel{kernels.GlobalHistogramWarpKernel(),
		kernels.GlobalOccursWarpKernel(), kernels.RadixBlockKernel[uint32, uint32](blockShape, kernels.KeysOnly, kernels.Ascending),
		kernels.RadixBlockKernel[float64, int64](blockShape, kernels.Pairs, kernels.Descending),
		kernels.RadixBlockKernel[float32, uint32](kernels.RadixShape{Threads: 256, PerThread: 16, Bits: 5, Rank: kernels.RankByCounters},
			kernels.Positions, kernels.Ascending), kernels.BlockCountKernel(kernels.BlockCountShape{Threads: 1024, PerThread: 8})}
	windowed := kernels.RadixShapeFor(4, 4, 1<<25)
	windowed.Window = 8
	ks = append(ks, kernels.RadixPassKernel[uint32, uint32](kernels.RadixShapeFor(4, 0, 1<<25), kernels.KeysOnly, kernels.Ascending),
		kernels.RadixPassKernel[uint32, uint32](kernels.RadixShapeFor(4, 4, 1<<16), kernels.Pairs, kernels.Ascending),
		kernels.RadixPassKernel[float64, int32](kernels.RadixShapeFor(8, 4, 1<<20), kernels.Pairs, kernels.Ascending),
		kernels.RadixPassKernel[int32, uint32](windowed, kernels.Positions, kernels.Descending),
		kernels.RadixHistogramKernel[uint64](windowed, kernels.Pairs, kernels.Descending),
		kernels.RadixPassKernel[uint64, float32](kernels.RadixShape{Threads: 128, PerThread: 8, Bits: 5, Rank: kernels.RankByCounters},
			kernels.Pairs, kernels.Ascending))
	ks = append(ks, kernels.RankSortKernel[uint32, uint32](8, kernels.KeysOnly, kernels.Ascending), kernels.RankSortKernel[float64, int64](4, kernels.Pairs, kernels.Descending),
		kernels.RankSortKernel[int32, uint32](32, kernels.Positions, kernels.Ascending))
	ks = append(ks, kernels.SharedHistogramKernels()...)
	ks = append(ks, kernels.SharedOccursKernels()...)
	for _, k := range ks {
		kernel, err := k.Build()
		if err != nil {
			t.Fatal(err)
		}
		src, _, err := codegen.CUDA(kernel)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, kernel.Name+".cu")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc",
			"-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude,
			"-S", "-o", os.DevNull, file)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("clang rejects kernel %s: %v\n%s", kernel.Name, err, out)
		}
	}
}
