package arrays_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// A tiled transpose: each block copies one tile of the matrix into shared
// memory, its threads reading along the tile's rows, and writes the tile's
// transpose at its place in the result, its threads writing along the
// result's rows, so that both the reads and the writes of global memory
// are in memory order. Tiles at the right and bottom edges are partial.
func ExampleMapTiles() {
	k := dsl.NewKernel("transpose", 32)
	rows, cols := dsl.Param[uint32](k, "rows"), dsl.Param[uint32](k, "cols")
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		m := arrays.AsMatrix(rows, cols, arrays.FromArray(in))
		arrays.WriteTo(g, out, arrays.MapTiles(arrays.TilesOf(m, 2, 4), cols, rows, // the result is cols × rows
			func(b *dsl.Block, tile arrays.Tile[uint32]) arrays.Tile[uint32] {
				return arrays.ComputeTile(b, tile).Transposed()
			}))
	})
	kernel, err := k.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	dev := runtime.CPU()
	fn, err := dev.Load(kernel)
	if err != nil {
		fmt.Println(err)
		return
	}
	const r, c = 3, 5
	xs := make([]uint32, r*c)
	for i := range xs {
		xs[i] = uint32(i/c*10 + i%c) // element (r, c) is 10r + c
	}
	inb, _ := runtime.FromSlice(dev, xs)
	outb, _ := runtime.Alloc[uint32](dev, r*c)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, uint32(r), uint32(c), inb, outb); err != nil {
		fmt.Println(err)
		return
	}
	got, _ := outb.ToSlice()
	for row := range c {
		fmt.Println(got[row*r : (row+1)*r])
	}
	// Output:
	// [0 10 20]
	// [1 11 21]
	// [2 12 22]
	// [3 13 23]
	// [4 14 24]
}

// Why arrays of pairs exist: a sorting network moves keys, and the values
// that belong to them must move with them. Odd-even transposition sort of
// eight pairs: eight steps, each a row of key-value two-sorters, each
// computed into two shared arrays with one barrier.
func ExampleCmpSwapByKey() {
	const n = 8
	k := dsl.NewKernel("sortByKey", 32)
	keys, vals := dsl.Input[uint32](k, "keys"), dsl.Input[float32](k, "vals")
	sortedKeys, sortedVals := dsl.Output[uint32](k, "sortedKeys"), dsl.Output[float32](k, "sortedVals")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			p := arrays.Zip(arrays.Take(dsl.N(n), arrays.FromArray(keys)), arrays.Take(dsl.N(n), arrays.FromArray(vals)))
			for step := range n {
				if step%2 == 0 {
					p = arrays.ComputePairs(b, arrays.EvensPairs(arrays.CmpSwapByKey[uint32, float32], p))
				} else {
					p = arrays.ComputePairs(b, arrays.OddsPairs(arrays.CmpSwapByKey[uint32, float32], p))
				}
			}
			arrays.WritePairsTo(b, sortedKeys, sortedVals, arrays.ToPushPairs[*dsl.Block](p))
		})
	})
	kernel, err := k.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	dev := runtime.CPU()
	fn, err := dev.Load(kernel)
	if err != nil {
		fmt.Println(err)
		return
	}
	kb, _ := runtime.FromSlice(dev, []uint32{3, 1, 2, 1, 0, 3, 2, 1})
	vb, _ := runtime.FromSlice(dev, []float32{0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5})
	skb, _ := runtime.Alloc[uint32](dev, n)
	svb, _ := runtime.Alloc[float32](dev, n)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, kb, vb, skb, svb); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(skb.ToSlice())
	fmt.Println(svb.ToSlice()) // equal keys keep their order
	// Output:
	// [0 1 1 1 2 2 3 3] <nil>
	// [4.5 1.5 3.5 7.5 2.5 6.5 0.5 5.5] <nil>
}

// A running balance that never goes below zero, computed by one thread:
// MapAccum threads the balance through the transactions and writes the
// balance after each; SeqScan writes the plain running sums.
func ExampleMapAccum() {
	k := dsl.NewKernel("balance", 32)
	in := dsl.Input[int32](k, "transactions")
	balances, sums, final := dsl.Output[int32](k, "balances"), dsl.Output[int32](k, "sums"), dsl.Output[int32](k, "final")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
			step := func(balance, x dsl.I32) (dsl.I32, dsl.I32) {
				next := balance.Add(x).Max(dsl.Lit[int32](0))
				return next, next
			}
			last := arrays.MapAccum(t, step, dsl.Lit[int32](0), arrays.FromArray(in), balances.Store)
			final.Store(t, dsl.N(0), last)
			arrays.WriteTo(t, sums, arrays.SeqScan(dsl.I32.Add, arrays.FromArray(in)))
		})
	})
	kernel, err := k.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	dev := runtime.CPU()
	fn, err := dev.Load(kernel)
	if err != nil {
		fmt.Println(err)
		return
	}
	xs := []int32{5, -3, -4, 6, -1}
	inb, _ := runtime.FromSlice(dev, xs)
	bb, _ := runtime.Alloc[int32](dev, len(xs))
	sb, _ := runtime.Alloc[int32](dev, len(xs))
	fb, _ := runtime.Alloc[int32](dev, 1)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, bb, sb, fb); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bb.ToSlice())
	fmt.Println(sb.ToSlice())
	fmt.Println(fb.ToSlice())
	// Output:
	// [5 2 0 6 5] <nil>
	// [5 2 -2 4 3] <nil>
	// [5] <nil>
}
