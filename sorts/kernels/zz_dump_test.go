package kernels_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

func TestZZDump(t *testing.T) {
	dir := os.Getenv("DUMPDIR")
	if dir == "" {
		t.Skip()
	}
	ks := map[string]*dsl.Kernel{
		"u32": kernels.RadixPassKernel[uint32, uint32](kernels.RadixShapeFor(4, 0, 1<<25), kernels.KeysOnly),
		"f32": kernels.RadixPassKernel[float32, uint32](kernels.RadixShapeFor(4, 0, 1<<25), kernels.KeysOnly),
		"u64": kernels.RadixPassKernel[uint64, uint32](kernels.RadixShapeFor(8, 0, 1<<25), kernels.KeysOnly),
		"u32p": kernels.RadixPassKernel[uint32, uint32](kernels.RadixShapeFor(4, 4, 1<<25), kernels.Pairs),
		"f32_16": kernels.RadixPassKernel[float32, uint32](kernels.RadixShape{Threads: 512, PerThread: 16, Bits: 8, Window: 4, MinBlocks: 2}, kernels.KeysOnly),
		"u32_16": kernels.RadixPassKernel[uint32, uint32](kernels.RadixShape{Threads: 512, PerThread: 16, Bits: 8, Window: 4, MinBlocks: 2}, kernels.KeysOnly),
		"rank_u32": kernels.RankSortKernel[uint32, uint32](16, kernels.KeysOnly),
		"rank_f64p": kernels.RankSortKernel[float64, uint32](8, kernels.Pairs),
		"blk4096": kernels.RadixBlockKernel[uint32, uint32](kernels.RadixShapeFor(4, 0, 4096), kernels.KeysOnly),
	}
	for name, k := range ks {
		kernel, err := k.Build()
		if err != nil {
			t.Fatal(err)
		}
		src, _, err := codegen.CUDA(kernel)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".cu"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
