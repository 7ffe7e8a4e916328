package arrays_test

import (
	"fmt"
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

// garbage is what the lanes past the input's end pass to the warp
// collectives: a value that would show in any result it reached.
const garbage = 77

// warpLaneKernel returns a kernel that runs WarpScan, WarpScanExclusive
// and WarpReduce on its input, one element per lane, in blocks of threads
// threads: in a Block.ForAll, or (warps) in the Warp.ForAll of every warp
// of a Block.ForAllWarps.
func warpLaneKernel[T dsl.Number](o operator[T], threads int, warps bool) *dsl.Kernel {
	k := dsl.NewKernel("warpLanes", threads)
	in := dsl.Input[T](k, "input")
	incl, excl, total := dsl.Output[T](k, "inclusive"), dsl.Output[T](k, "exclusive"), dsl.Output[T](k, "total")
	k.Body(func(g *dsl.Grid) {
		n := in.Len()
		g.ForAllBlocks(dsl.CeilDiv(n, dsl.N(uint32(threads))), func(b *dsl.Block, bid dsl.U32) {
			first := bid.Mul(dsl.N(uint32(threads)))
			body := func(t *dsl.Thread, i dsl.U32) {
				x := dsl.Select(i.Lt(n), in.At(i), dsl.Const[T](garbage))
				valid := arrays.LanesBelow(n, i)
				s := arrays.WarpScan(t, o.op, x, valid)
				e := arrays.WarpScanExclusive(t, o.op, dsl.Lit(o.identity), x, valid)
				r := arrays.WarpReduce(t, o.op, x, valid)
				t.If(i.Lt(n), func(t *dsl.Thread) {
					incl.Store(t, i, s)
					excl.Store(t, i, e)
					total.Store(t, i, r)
				})
			}
			if !warps {
				b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) { body(t, first.Add(tid)) })
				return
			}
			b.ForAllWarps(dsl.N(uint32(threads/ir.WarpSize)), func(w *dsl.Warp, wid dsl.U32) {
				w.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
					body(t, first.Add(wid.Mul(dsl.N(ir.WarpSize))).Add(lane))
				})
			})
		})
	})
	return k
}

// checkWarpLanes runs warpLaneKernel on xs and compares it with o's
// sequential scans of every warp's elements.
func checkWarpLanes[T dsl.Number](dev runtime.Device, o operator[T], threads int, warps bool, xs []T) string {
	got, err := run(dev, warpLaneKernel(o, threads, warps), xs, len(xs), len(xs), len(xs))
	if err != nil {
		return err.Error()
	}
	var incl, excl, total []T
	for w := 0; w < len(xs); w += ir.WarpSize {
		i, e, t := o.scan(xs[w:min(w+ir.WarpSize, len(xs))])
		incl, excl = append(incl, i...), append(excl, e...)
		for range i {
			total = append(total, t)
		}
	}
	where := fmt.Sprintf("%s, %d elements, %d threads, warp level %v: ", o.name, len(xs), threads, warps)
	for _, d := range []string{differ("inclusive", got[0], incl), differ("exclusive", got[1], excl),
		differ("total", got[2], total)} {
		if d != "" {
			return where + d
		}
	}
	return ""
}

// warpLaneLaw is the property that the warp collectives equal the
// sequential scans for the operators ops, at lengths 1 to 2^12.
func warpLaneLaw[T dsl.Number](t *testing.T, dev runtime.Device, ops []operator[T], cases int) {
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	props.Property("warp collectives equal sequential scans", prop.ForAll(
		func(op, n, threads int, warps bool, seed uint64) string {
			o := ops[op]
			return checkWarpLanes(dev, o, threads*ir.WarpSize, warps, o.values(seed, n))
		},
		gen.IntRange(0, len(ops)-1), gen.IntRange(1, 1<<12), gen.IntRange(1, 8), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}

// TestWarpCollectivesEqualSequentialScans checks WarpScan,
// WarpScanExclusive and WarpReduce, in Block- and Warp-level ForAlls,
// against Go for add, max, min, xor and two operators that are not
// commutative, at random lengths (most with a partial last warp), and at
// the lengths around a warp.
func TestWarpCollectivesEqualSequentialScans(t *testing.T) {
	dev := runtime.CPU()
	for _, o := range u32Ops {
		for _, n := range []int{1, 2, 31, 32, 33, 64, 65} {
			for _, warps := range []bool{false, true} {
				if msg := checkWarpLanes(dev, o, 64, warps, o.values(uint64(n), n)); msg != "" {
					t.Error(msg)
				}
			}
		}
	}
	warpLaneLaw(t, dev, u32Ops, 30)
	warpLaneLaw(t, dev, i64Ops, 5)
	warpLaneLaw(t, dev, f32Ops, 5)
}
