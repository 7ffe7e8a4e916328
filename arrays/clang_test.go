package arrays_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
)

// collectiveKernels are kernels that use every collective, on 32- and
// 64-bit integers and floats, the ballot collectives, Compute at every
// level, the pairs, tiles and sequential scans, the device scan of each
// 32-bit type and the warp aggregations.
func collectiveKernels() []*dsl.Kernel {
	return []*dsl.Kernel{
		warpLaneKernel(u32Ops[5], 64, false), warpLaneKernel(u32Ops[4], 64, true),
		warpLaneKernel(i64Ops[0], 128, false), warpLaneKernel(f32Ops[0], 32, true),
		collectiveKernel(u32Ops[5], 256, atBlock), collectiveKernel(u32Ops[4], 64, atWarp),
		collectiveKernel(i64Ops[1], 128, atBlock), collectiveKernel(f32Ops[0], 32, atWarp),
		tileKernel(u32Ops[0], 256, 1000, false), tileKernel(u32Ops[5], 128, 512, true),
		searchKernel[uint32](), searchKernel[int64](), searchKernel[float32](),
		partitionKernel(128, atBlock), partitionKernel(64, atWarp),
		multisplitKernel(256, 8, 0), multisplitKernel(256, 8, 4096), tiledMultisplitKernel(1024, 3, 4096, fromGlobal),
		tiledMultisplitKernel(256, 8, 4096, fromShared), tiledMultisplitKernel(512, 8, 9216, fromHeld),
		levelKernel(u32Ops[0], 64), levelKernel(u32Ops[1], 100), // local and per-warp shared arrays
		tiledTransposeKernel(7, 13, 64), oddEvenSortKernel(16, 64), seqScanKernel(u32Ops[5], true, true), mapAccumKernel(1),
		arrays.DeviceScanKernel("deviceScanU32", dsl.U32.Add, dsl.N(0), true),
		arrays.DeviceScanKernel("deviceScanF32", dsl.Exp[float32].Max, dsl.Lit(float32(-1e30)), false),
		arrays.DeviceScanKernel("deviceScanI32", dsl.Exp[int32].Min, dsl.Lit(int32(1<<31-1)), false),
		aggregateKernel[uint32](u32Ops[5], false), aggregateKernel[uint32](u32Ops[5], true),
		aggregateKernel[int64](i64Ops[0], false), aggregateKernel[uint8](u32Ops[0], false),
		matchKernel[int32](), matchKernel[uint64](),
		blellochKernel(u32Ops[5], 64, 300), blellochKernel(i64Ops[1], 256, 1024),
		aggregateKernelOf(u32Ops[5], arrays.WarpAggregateHot[uint32, uint32]), aggregateKernelOf(i64Ops[0], arrays.WarpAggregateHot[int64, int64]),
		lookBackKernel(64, 64, 1, dsl.U32.Add, dsl.N(0), plain, false),
		lookBackKernel(64, 256, 8, affine, dsl.N(1<<16), seeded, true),
		lookBackKernel(64, 96, 2, dsl.U32.Add, dsl.N(0), split, false),
	}
}

// TestClangCompilesTheCollectives compiles the printed CUDA of
// collectiveKernels with clang in CUDA device mode, with codegen's prelude
// in place of the CUDA headers (as codegen's own clang test does).
func TestClangCompilesTheCollectives(t *testing.T) {
	clang, err := exec.LookPath("clang-14")
	if err != nil {
		t.Skip("clang-14 is not installed; CI installs it and runs this test")
	}
	dir := t.TempDir()
	prelude := filepath.Join(dir, "prelude.h")
	if err := os.WriteFile(prelude, []byte(codegen.Prelude()), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, k := range collectiveKernels() {
		kernel, err := k.Build()
		if err != nil {
			t.Fatal(err)
		}
		src, _, err := codegen.CUDA(kernel)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, kernel.Name+string(rune('a'+i))+".cu")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc",
			"-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude,
			"-S", "-o", os.DevNull, file)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("clang rejects kernel %s: %v\n%s\n%s", kernel.Name, err, out, src)
		}
	}
}
