package eval

import (
	"math/rand/v2"
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

// BenchmarkSortHistogramWarp launches the sorts package's histogram on a
// global table of 2^22 bins (larger than the caches, with its race
// state), for 2^18 random keys: atomics on cells all over the table.
func BenchmarkSortHistogramWarp(b *testing.B) {
	const keys, bins = 1 << 18, 1 << 22
	k := compiledKernel(b, kernels.GlobalHistogramWarpKernel())
	in, table := NewBuffer(ir.Uint32, keys), NewBuffer(ir.Uint32, bins)
	bad, ranges := NewBuffer(ir.Uint32, 1), NewBuffer(ir.Uint32, 2*(keys/warpSize+1))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range keys {
		in.Set(i, valueOf(r.Uint32N(bins)))
	}
	scalar := func(x uint32) Arg { return Arg{Scalar: valueOf(x)} }
	args := []Arg{{Buffer: in}, scalar(0), scalar(bins), scalar(0), scalar(bins), {Buffer: table}, {Buffer: bad},
		{Buffer: ranges}, scalar(1)}
	blocks := (keys + 1023) / 1024
	for b.Loop() {
		clear(table.Data)
		if err := Launch(k, Config{Blocks: blocks}, args); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keys), "ns/key")
}

// BenchmarkSortReconstructTiles launches the sorts package's tile
// reconstruct (block scans with loops of run-time trip counts) on 16 tiles
// of output from random counts of 2^16 values.
func BenchmarkSortReconstructTiles(b *testing.B) {
	const values, tiles = 1 << 16, 16
	const n = tiles * kernels.TileSize
	k := compiledKernel(b, kernels.TileReconstructKernel())
	r := rand.New(rand.NewPCG(3, 4))
	counts := make([]uint32, values)
	for range n {
		counts[r.IntN(values)]++
	}
	pos, starts, out := NewBuffer(ir.Uint32, values+1), NewBuffer(ir.Uint32, tiles+1), NewBuffer(ir.Uint32, n)
	var sum uint32
	for v, c := range counts {
		pos.Set(v, valueOf(sum))
		sum += c
	}
	pos.Set(values, valueOf(sum))
	for t := range tiles + 1 {
		// The last v < values with pos[v] <= t*TileSize (the last value
		// for the end).
		target, v := uint32(t*kernels.TileSize), values-1
		if t < tiles {
			for v = 0; v+1 < values && uint32(pos.Get(v+1).Bits) <= target; v++ {
			}
		}
		starts.Set(t, valueOf(uint32(v)))
	}
	args := []Arg{{Buffer: pos}, {Buffer: starts}, {Scalar: valueOf(uint32(0))}, {Buffer: out}}
	for b.Loop() {
		if err := Launch(k, Config{Blocks: tiles}, args); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/element")
	for v, p := 0, 0; v < values; v++ {
		for range counts[v] {
			if got := uint32(out.Get(p).Bits); got != uint32(v) {
				b.Fatalf("out[%d] = %d, want %d", p, got, v)
			}
			p++
		}
	}
}
