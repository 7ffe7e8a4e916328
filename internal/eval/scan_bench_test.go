package eval

import (
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// The tile scan of the benchmark: blocks of scanThreads threads, each
// scanning scanPer consecutive elements of a tile in registers.
const (
	scanThreads = 256
	scanPer     = 16
	scanTile    = scanThreads * scanPer
	scanSegment = warpSize * scanPer // the elements a warp scans
)

// tileScanKernel returns a reduce-then-scan kernel in the shape of the
// sorts package's (the costliest launch of a counting sort on the CPU
// device): rows of a tile loaded under a bounds test into shared memory, a
// scan per thread in registers and one per warp by shuffles, and rows
// stored under an If. out gets the inclusive scan of each segment of
// scanSegment elements of in (the warps' totals are not carried over).
func tileScanKernel(t testing.TB) *ir.Kernel {
	k := dsl.NewKernel("tileScan", scanThreads)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(in.Len().Div(dsl.N(scanTile)), func(b *dsl.Block, tile dsl.U32) {
			first := dsl.Let(b, tile.Mul(dsl.N(scanTile)))
			sh := dsl.Shared[uint32](b, scanTile)
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				for j := range scanPer {
					ix := first.Add(dsl.N(uint32(j * scanThreads))).Add(tid)
					sh.Store(t, tid.Add(dsl.N(uint32(j*scanThreads))), dsl.Select(ix.Lt(in.Len()), in.At(ix), dsl.N(0)))
				}
			})
			b.Sync()
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				at := dsl.Let(t, tid.Mul(dsl.N(scanPer)))
				xs := make([]dsl.U32, scanPer)
				total := dsl.N(0)
				for e := range xs {
					xs[e] = dsl.Let(t, sh.At(at.Add(dsl.N(uint32(e))))).Exp
					total = total.Add(xs[e])
				}
				mine := dsl.Let(t, total)
				lane := dsl.Let(t, tid.And(dsl.N(31)))
				v := dsl.Let(t, mine.Exp)
				for d := uint32(1); d < 32; d *= 2 {
					below := dsl.Shuffle(t, dsl.ShuffleUp, v.Exp, dsl.N(d))
					v.Set(v.Add(dsl.Select(lane.Ge(dsl.N(d)), below, dsl.N(0))))
				}
				run := dsl.Let(t, v.Sub(mine.Exp))
				for e, x := range xs {
					run.Set(run.Add(x))
					sh.Store(t, at.Add(dsl.N(uint32(e))), run.Exp)
				}
			})
			b.Sync()
			b.ForAll(dsl.N(scanThreads), func(t *dsl.Thread, tid dsl.U32) {
				for j := range scanPer {
					ix := dsl.Let(t, first.Add(dsl.N(uint32(j*scanThreads))).Add(tid))
					t.If(ix.Lt(out.Len()), func(t *dsl.Thread) {
						out.Store(t, ix.Exp, sh.At(tid.Add(dsl.N(uint32(j*scanThreads)))))
					})
				}
			})
		})
	})
	built, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := codegen.Compile(built, codegen.DefaultTarget)
	if err != nil {
		t.Fatal(err)
	}
	return compiled
}

// BenchmarkTileScan launches tileScanKernel on 64 tiles: the operators,
// selects, shuffles and shared and global accesses of a scan.
func BenchmarkTileScan(b *testing.B) {
	const n = 64 * scanTile
	k, in, out := tileScanKernel(b), NewBuffer(ir.Uint32, n), NewBuffer(ir.Uint32, n)
	for i := range n {
		in.Set(i, valueOf(uint32(i*7919)))
	}
	for b.Loop() {
		if err := Launch(k, Config{Blocks: 16}, bufArgs(in, out)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/element")
}

// TestTileScan checks the kernel of BenchmarkTileScan against a scan in Go.
func TestTileScan(t *testing.T) {
	const n = 3 * scanTile
	k, in, out := tileScanKernel(t), NewBuffer(ir.Uint32, n), NewBuffer(ir.Uint32, n)
	for i := range n {
		in.Set(i, valueOf(uint32(i*7919)))
	}
	if err := Launch(k, Config{Blocks: 2}, bufArgs(in, out)); err != nil {
		t.Fatal(err)
	}
	var sum uint32
	for i, got := range u32s(out) {
		if i%scanSegment == 0 {
			sum = 0
		}
		if sum += uint32(i * 7919); got != sum {
			t.Fatalf("out[%d] = %d, want %d", i, got, sum)
		}
	}
}
