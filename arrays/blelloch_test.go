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
	"github.com/obsidian-go/obsidian/runtime"
)

// blellochKernel returns a one-block kernel of threads threads that writes
// BlellochScan of its input, of the constant length n, and its total.
func blellochKernel[T dsl.Number](o operator[T], threads int, n uint32) *dsl.Kernel {
	k := dsl.NewKernel("blelloch", threads)
	in := dsl.Input[T](k, "input")
	excl, total := dsl.Output[T](k, "exclusive"), dsl.Output[T](k, "total")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			scan, sum := arrays.BlellochScan(b, o.op, dsl.Lit(o.identity), arrays.Take(dsl.N(n), arrays.FromArray(in)))
			arrays.WriteTo(b, excl, arrays.ToPush[*dsl.Block](scan))
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { total.Store(t, dsl.N(0), sum) })
		})
	})
	return k
}

// checkBlelloch runs blellochKernel on xs and compares it with o's
// sequential exclusive scan and total.
func checkBlelloch[T dsl.Number](dev runtime.Device, o operator[T], threads int, xs []T) string {
	got, err := run(dev, blellochKernel(o, threads, uint32(len(xs))), xs, len(xs), 1)
	where := fmt.Sprintf("BlellochScan under %s, %d elements, %d threads: ", o.name, len(xs), threads)
	if err != nil {
		return where + err.Error()
	}
	_, excl, total := o.scan(xs)
	for _, d := range []string{differ("exclusive", got[0], excl), differ("total", got[1], []T{total})} {
		if d != "" {
			return where + d
		}
	}
	return ""
}

// TestBlellochScanLaw checks that BlellochScan equals the sequential
// exclusive scan, with its total, for associative operators commutative
// or not, at lengths 0 to 2^11 (powers of two, their neighbours and
// others) and blocks smaller and larger than the array.
func TestBlellochScanLaw(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 40))
	lengths := gen.OneGenOf(gen.OneConstOf(0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025), gen.IntRange(0, 2048))
	props.Property("BlellochScan equals the sequential exclusive scan", prop.ForAll(
		func(op, n, warps int, seed uint64) string {
			return checkBlelloch(dev, u32Ops[op], warps*32, u32Ops[op].values(seed, n))
		},
		gen.IntRange(0, len(u32Ops)-1), lengths, gen.IntRange(1, 8), gen.UInt64()))
	props.Property("BlellochScan of int64 and float32 equals the sequential exclusive scan", prop.ForAll(
		func(op, n int, seed uint64) string {
			if op < len(i64Ops) {
				return checkBlelloch(dev, i64Ops[op], 128, i64Ops[op].values(seed, n))
			}
			return checkBlelloch(dev, f32Ops[op-len(i64Ops)], 128, f32Ops[op-len(i64Ops)].values(seed, n))
		},
		gen.IntRange(0, len(i64Ops)+len(f32Ops)-1), lengths, gen.UInt64()))
	props.TestingRun(t)
}

// TestBlellochScanPadding checks the layout: one slot of padding after
// every 32 elements.
func TestBlellochScanPadding(t *testing.T) {
	k := dsl.NewKernel("padded", 32)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(in.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, arrays.BankPadded(i.Add(in.At(i)))) })
	})
	got, err := run(runtime.CPU(), k, make([]uint32, 100), 100)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range got[0] {
		if want := uint32(i + i/32); s != want {
			t.Fatalf("BankPadded(%d) = %d, want %d", i, s, want)
		}
	}
}
