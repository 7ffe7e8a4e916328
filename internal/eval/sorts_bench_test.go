package eval

import (
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// compiledKernel builds k and compiles it as the CPU device does.
func compiledKernel(tb testing.TB, k *dsl.Kernel) *ir.Kernel {
	built, err := k.Build()
	if err != nil {
		tb.Fatal(err)
	}
	compiled, err := codegen.Compile(built, codegen.DefaultTarget)
	if err != nil {
		tb.Fatal(err)
	}
	return compiled
}

// BenchmarkSortScanTiles launches the sorts package's tile scan (the
// costliest launch of a counting sort on the CPU device: local arrays,
// per-warp shared totals, shared and global rows) on 32 tiles.
func BenchmarkSortScanTiles(b *testing.B) {
	const tiles = 32
	n := tiles * kernels.ScanTile
	k := compiledKernel(b, kernels.TileScanKernel())
	in, sums, out := NewBuffer(ir.Uint32, n), NewBuffer(ir.Uint32, tiles), NewBuffer(ir.Uint32, n)
	for i := range n {
		in.Set(i, valueOf(uint32(i*7919)))
	}
	for b.Loop() {
		if err := Launch(k, Config{Blocks: tiles}, bufArgs(in, sums, out)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/element")
}
