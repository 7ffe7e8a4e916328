package arrays_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// warpTotalsKernel returns a kernel whose blocks of threads threads take
// one input element per thread (a block's threads past the input's end
// hold the identity), and write WarpTotals' Scan per thread, Warp and
// Before per warp and Total per block.
func warpTotalsKernel[T dsl.Number](o operator[T], threads int) *dsl.Kernel {
	k := dsl.NewKernel("warpTotals", threads)
	in := dsl.Input[T](k, "input")
	scan, warps, totals := dsl.Output[T](k, "scan"), dsl.Output[T](k, "warps"), dsl.Output[T](k, "totals")
	before := dsl.Output[T](k, "before")
	perBlock := threads / ir.WarpSize
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(totals.Len(), func(b *dsl.Block, bid dsl.U32) {
			w := arrays.NewWarpTotals(b, o.op)
			first := dsl.Let(b, bid.Mul(dsl.N(uint32(threads))))
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, first.Add(tid))
				x := dsl.Select(i.Lt(in.Len()), in.At(i.Exp), dsl.Lit(o.identity))
				upTo := w.Scan(t, tid, x)
				t.If(i.Lt(in.Len()), func(t *dsl.Thread) { scan.Store(t, i.Exp, upTo) })
			})
			b.Sync()
			b.ForAll(dsl.N(uint32(perBlock)), func(t *dsl.Thread, wid dsl.U32) {
				at := dsl.Let(t, bid.Mul(dsl.N(uint32(perBlock))).Add(wid)).Exp
				warps.Store(t, at, w.Warp(wid))
				before.Store(t, at, w.Before(t, wid, dsl.Lit(o.identity)))
			})
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { totals.Store(t, bid, w.Total(t)) })
		})
	})
	return k
}

// checkWarpTotals runs warpTotalsKernel on xs and compares it with o's
// sequential scans of every warp's and every block's elements.
func checkWarpTotals[T dsl.Number](dev runtime.Device, o operator[T], threads int, xs []T) string {
	blocks := (len(xs) + threads - 1) / threads
	perBlock := threads / ir.WarpSize
	got, err := run(dev, warpTotalsKernel(o, threads), xs, len(xs), blocks*perBlock, blocks, blocks*perBlock)
	where := fmt.Sprintf("%s, %d elements, %d threads: ", o.name, len(xs), threads)
	if err != nil {
		return where + err.Error()
	}
	padded := append(append([]T{}, xs...), make([]T, blocks*threads-len(xs))...)
	for i := len(xs); i < len(padded); i++ {
		padded[i] = o.identity
	}
	var scan, warps, totals, before []T
	for b := 0; b < blocks; b++ {
		block := padded[b*threads : (b+1)*threads]
		_, _, total := o.scan(block)
		totals = append(totals, total)
		var blockWarps []T
		for w := 0; w < len(block); w += ir.WarpSize {
			incl, _, warp := o.scan(block[w:min(w+ir.WarpSize, len(block))])
			scan, blockWarps = append(scan, incl...), append(blockWarps, warp)
		}
		_, excl, _ := o.scan(blockWarps)
		warps, before = append(warps, blockWarps...), append(before, excl...)
	}
	for _, d := range []string{differ("scan", got[0], scan[:len(xs)]), differ("warps", got[1], warps),
		differ("totals", got[2], totals), differ("before", got[3], before)} {
		if d != "" {
			return where + d
		}
	}
	return ""
}

// TestWarpTotalsEqualSequentialScans checks WarpTotals against Go for
// add, max, min, xor and two operators that are not commutative, in
// blocks of one to 32 warps (where an operator that uses an operand
// twice would make an expression of 2^32 nodes of a total not kept in
// variables), on inputs that end inside a block.
func TestWarpTotalsEqualSequentialScans(t *testing.T) {
	dev := runtime.CPU()
	for _, o := range u32Ops {
		for _, threads := range []int{32, 64, 256, 1024} {
			for _, n := range []int{1, threads - 1, threads, 3*threads + 5} {
				if msg := checkWarpTotals(dev, o, threads, o.values(uint64(n), n)); msg != "" {
					t.Error(msg)
				}
			}
		}
	}
	props := gopter.NewProperties(proptest.Parameters(t, 20))
	props.Property("WarpTotals equals sequential scans", prop.ForAll(
		func(op, n, warps int, seed uint64) string {
			o := i64Ops[op]
			return checkWarpTotals(dev, o, warps*ir.WarpSize, o.values(seed, n))
		},
		gen.IntRange(0, len(i64Ops)-1), gen.IntRange(1, 1<<11), gen.IntRange(1, 8), gen.UInt64()))
	props.TestingRun(t)
}

// TestZeroWarpTotals checks that the methods of the zero WarpTotals are
// errors at the user's line, and a nil operator one at NewWarpTotals's.
func TestZeroWarpTotals(t *testing.T) {
	for _, c := range []struct {
		name string
		use  func(b *dsl.Block, out dsl.Array[uint32])
		want string
	}{
		{"zero Scan", func(b *dsl.Block, out dsl.Array[uint32]) {
			var w arrays.WarpTotals[uint32]
			b.ForAll(dsl.N(32), func(t *dsl.Thread, tid dsl.U32) { out.Store(t, tid, w.Scan(t, tid, tid)) })
		}, "Scan of a zero WarpTotals"},
		{"zero Total", func(b *dsl.Block, out dsl.Array[uint32]) {
			var w arrays.WarpTotals[uint32]
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { out.Store(t, dsl.N(0), w.Total(t)) })
		}, "Total of a zero WarpTotals"},
		{"zero Before", func(b *dsl.Block, out dsl.Array[uint32]) {
			var w arrays.WarpTotals[uint32]
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { out.Store(t, dsl.N(0), w.Before(t, dsl.N(0), dsl.N(0))) })
		}, "Before of a zero WarpTotals"},
		{"zero Warp", func(b *dsl.Block, out dsl.Array[uint32]) {
			var w arrays.WarpTotals[uint32]
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { out.Store(t, dsl.N(0), w.Warp(dsl.N(0))) })
		}, "Warp of a zero WarpTotals"},
		{"nil operator", func(b *dsl.Block, out dsl.Array[uint32]) {
			w := arrays.NewWarpTotals[uint32](b, nil)
			b.ForAll(dsl.N(32), func(t *dsl.Thread, tid dsl.U32) { out.Store(t, tid, w.Scan(t, tid, tid)) })
		}, "NewWarpTotals of a nil operator"},
	} {
		k := dsl.NewKernel("zeroWarpTotals", 32)
		out := dsl.Output[uint32](k, "out")
		k.Body(func(g *dsl.Grid) {
			g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) { c.use(b, out) })
		})
		_, err := k.Build()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "warptotals_test.go:") {
			t.Errorf("%s: got %v, want an error at this file saying %q", c.name, err, c.want)
		}
	}
}
