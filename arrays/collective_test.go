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

// level runs body at level P in block b: the block itself, or its first
// warp.
type level[P arrays.Collective] func(b *dsl.Block, body func(p P))

func atBlock(b *dsl.Block, body func(*dsl.Block)) { body(b) }

func atWarp(b *dsl.Block, body func(*dsl.Warp)) {
	b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) { body(w) })
}

// collectiveKernel returns a one-block kernel that writes Scan,
// ScanExclusive and Reduce of its whole input, run at level P.
func collectiveKernel[P arrays.Collective, T dsl.Number](o operator[T], threads int, at level[P]) *dsl.Kernel {
	k := dsl.NewKernel("collective", threads)
	in := dsl.Input[T](k, "input")
	incl, excl, total := dsl.Output[T](k, "inclusive"), dsl.Output[T](k, "exclusive"), dsl.Output[T](k, "total")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			a := arrays.FromArray(in)
			at(b, func(p P) {
				arrays.WriteTo(p, incl, arrays.Scan[P](o.op, a))
				arrays.WriteTo(p, excl, arrays.ScanExclusive[P](o.op, dsl.Lit(o.identity), a))
				arrays.WriteTo(p, total, arrays.Reduce[P](o.op, a))
			})
		})
	})
	return k
}

// checkCollective runs collectiveKernel on xs and compares it with o's
// sequential scans (the total of an empty array is not written).
func checkCollective[P arrays.Collective, T dsl.Number](dev runtime.Device, o operator[T], threads int, at level[P],
	xs []T) string {
	got, err := run(dev, collectiveKernel(o, threads, at), xs, len(xs), len(xs), 1)
	where := fmt.Sprintf("%s at %T, %d elements, %d threads: ", o.name, *new(P), len(xs), threads)
	if err != nil {
		return where + err.Error()
	}
	incl, excl, total := o.scan(xs)
	want := []T{total}
	if len(xs) == 0 {
		want = []T{0}
	}
	for _, d := range []string{differ("inclusive", got[0], incl), differ("exclusive", got[1], excl),
		differ("total", got[2], want)} {
		if d != "" {
			return where + d
		}
	}
	return ""
}

// collectiveLaw is the property that Scan, ScanExclusive and Reduce at
// Warp and Block level equal the sequential scans for the operators ops,
// at lengths 0 to 2^12 (up to 128 elements per lane).
func collectiveLaw[T dsl.Number](t *testing.T, dev runtime.Device, ops []operator[T], cases int) {
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	props.Property("collectives equal sequential scans", prop.ForAll(
		func(op, n, warps int, block bool, seed uint64) string {
			o, xs := ops[op], ops[op].values(seed, n)
			if block {
				return checkCollective(dev, o, warps*ir.WarpSize, atBlock, xs)
			}
			return checkCollective(dev, o, warps*ir.WarpSize, atWarp, xs)
		},
		gen.IntRange(0, len(ops)-1), gen.IntRange(0, 1<<12), gen.IntRange(1, 8), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}

// TestCollectivesEqualSequentialScans checks Scan, ScanExclusive and
// Reduce at Warp and Block level against Go for add, max, min, xor and
// two operators that are not commutative, at the lengths where the runs
// change shape and at random lengths.
func TestCollectivesEqualSequentialScans(t *testing.T) {
	dev := runtime.CPU()
	for _, o := range u32Ops {
		for _, n := range []int{0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000} {
			xs := o.values(uint64(n), n)
			for _, msg := range []string{checkCollective(dev, o, 64, atWarp, xs),
				checkCollective(dev, o, 64, atBlock, xs)} {
				if msg != "" {
					t.Error(msg)
				}
			}
		}
	}
	collectiveLaw(t, dev, u32Ops, 30)
	collectiveLaw(t, dev, i64Ops, 5)
	collectiveLaw(t, dev, f32Ops, 5)
}

// tileKernel returns a kernel whose blocks each scan a tile of tile
// elements of the input (the last tile partial) with BlockScan, writing
// the inclusive and the exclusive scans and the tile's Total; in place,
// the block scans its tile in shared memory, writing the scan over it.
func tileKernel(o operator[uint32], threads, tile int, inPlace bool) *dsl.Kernel {
	k := dsl.NewKernel("tiles", threads)
	in := dsl.Input[uint32](k, "input")
	incl, excl, totals := dsl.Output[uint32](k, "inclusive"), dsl.Output[uint32](k, "exclusive"),
		dsl.Output[uint32](k, "totals")
	size := dsl.N(uint32(tile))
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), size), func(b *dsl.Block, bid dsl.U32) {
			first := dsl.Let(b, bid.Mul(size))
			n := dsl.Let(b, size.Min(in.Len().Sub(first.Exp)))
			a := arrays.Take(n.Exp, arrays.Drop(first.Exp, arrays.FromArray(in)))
			at := func(t *dsl.Thread, i dsl.U32, v dsl.U32) { incl.Store(t, first.Add(i), v) }
			if inPlace {
				sh := dsl.Shared[uint32](b, tile)
				a = arrays.ComputeInto(b, sh, a)
				arrays.BlockScan(b, o.op, a).Inclusive().Run(b, sh.Store)
				b.Sync()
				arrays.ToPush[*dsl.Block](a).Run(b, at)
			} else {
				s := arrays.BlockScan(b, o.op, a)
				s.Inclusive().Run(b, at)
				s.Exclusive(dsl.Lit(o.identity)).Run(b, func(t *dsl.Thread, i dsl.U32, v dsl.U32) {
					excl.Store(t, first.Add(i), v)
				})
				b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { totals.Store(t, bid, s.Total()) })
			}
		})
	})
	return k
}

// checkTiles runs tileKernel on xs and compares it with o's sequential
// scans of every tile.
func checkTiles(dev runtime.Device, o operator[uint32], threads, tile int, inPlace bool, xs []uint32) string {
	tiles := (len(xs) + tile - 1) / tile
	got, err := run(dev, tileKernel(o, threads, tile, inPlace), xs, len(xs), len(xs), tiles)
	where := fmt.Sprintf("%s, %d elements, %d threads, tiles of %d, in place %v: ", o.name, len(xs), threads, tile,
		inPlace)
	if err != nil {
		return where + err.Error()
	}
	var incl, excl, totals []uint32
	for first := 0; first < len(xs); first += tile {
		i, e, t := o.scan(xs[first:min(first+tile, len(xs))])
		incl, excl, totals = append(incl, i...), append(excl, e...), append(totals, t)
	}
	d := differ("inclusive", got[0], incl)
	if !inPlace && d == "" {
		d = differ("exclusive", got[1], excl)
	}
	if !inPlace && d == "" {
		d = differ("totals", got[2], totals)
	}
	if d != "" {
		return where + d
	}
	return ""
}

// TestBlockScanOfTiles checks BlockScan's Inclusive, Exclusive and Total
// in many blocks, each scanning a tile of any size (several elements per
// thread, a partial last tile), and a scan written over the shared array
// it reads.
func TestBlockScanOfTiles(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("BlockScan of every tile equals the sequential scans", prop.ForAll(
		func(op, n, warps, tile int, inPlace bool, seed uint64) string {
			o := u32Ops[op]
			return checkTiles(dev, o, warps*ir.WarpSize, tile, inPlace, o.values(seed, n))
		},
		gen.IntRange(0, len(u32Ops)-1), gen.IntRange(1, 1<<12), gen.IntRange(1, 8), gen.IntRange(1, 2048),
		gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}
