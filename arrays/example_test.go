package arrays_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// fan adds the last element of the first half of a to every element of
// its second half: one step of Sklansky's prefix sum.
func fan(a arrays.Pull[uint32]) arrays.Pull[uint32] {
	a1, a2 := arrays.Halve(a)
	last := arrays.Last(a1)
	return arrays.Append(a1, arrays.Map(a2, func(x dsl.U32) dsl.U32 { return x.Add(last) }))
}

// The prefix sums of every block of 32 elements, Sklansky's way: five
// steps, the first applying fan to every pair, the last to the whole
// block, each written to shared memory by Compute (which ends with the
// block's barrier) for the next to read.
func Example() {
	const logBlock = 5
	k := dsl.NewKernel("scan32", 1<<logBlock)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		blocks := arrays.SplitUp(1<<logBlock, dsl.N(0), arrays.FromArray(in)) // a last partial block padded with 0
		arrays.WriteTo(g, out, arrays.MapBlocks(blocks, 1<<logBlock,
			func(b *dsl.Block, _ dsl.U32, a arrays.Pull[uint32]) arrays.Push[*dsl.Block, uint32] {
				for i := 0; i < logBlock; i++ {
					a = arrays.Compute(b, arrays.BinSplit(logBlock-1-i, fan, a))
				}
				return arrays.ToPush[*dsl.Block](a)
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
	ones := make([]uint32, 40)
	for i := range ones {
		ones[i] = 1
	}
	inb, _ := runtime.FromSlice(dev, ones)
	outb, _ := runtime.Alloc[uint32](dev, len(ones))
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(outb.ToSlice())
	// Output: [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 1 2 3 4 5 6 7 8] <nil>
}

// Pull arrays compose as index functions: this chain reads each output
// element straight from the input, with no array in between.
func ExampleReverse() {
	k := dsl.NewKernel("evensBackwards", 32)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		evens, _ := arrays.Halve(arrays.Unriffle(arrays.FromArray(in))) // the elements at even indices
		doubled := arrays.Map(arrays.Reverse(evens), func(x dsl.U32) dsl.U32 { return x.Mul(dsl.N(2)) })
		arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](doubled))
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
	inb, _ := runtime.FromSlice(dev, []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	outb, _ := runtime.Alloc[uint32](dev, 5)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(outb.ToSlice())
	// Output: [16 12 8 4 0] <nil>
}

// sumOfSquares is written once for every level a collective runs at: the
// sum of the squares of a, as a Push array of one element at level P.
func sumOfSquares[P arrays.Collective](a arrays.Pull[uint32]) arrays.Push[P, uint32] {
	return arrays.Reduce[P](dsl.U32.Add, arrays.Map(a, func(x dsl.U32) dsl.U32 { return x.Mul(x) }))
}

// One reduction used by a whole block, whose 64 threads share the 100
// elements and combine their warps' totals through shared memory, and by
// each warp of the block on its own half, with shuffles only.
func ExampleReduce() {
	k := dsl.NewKernel("sumsOfSquares", 64)
	in := dsl.Input[uint32](k, "in")
	whole, halves := dsl.Output[uint32](k, "whole"), dsl.Output[uint32](k, "halves")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			a := arrays.FromArray(in)
			arrays.WriteTo(b, whole, sumOfSquares[*dsl.Block](a))
			parts := arrays.SplitUp(50, dsl.N(0), a)
			b.ForAllWarps(parts.Len(), func(w *dsl.Warp, wid dsl.U32) {
				sumOfSquares[*dsl.Warp](parts.At(wid)).Run(w, func(t *dsl.Thread, _ dsl.U32, sum dsl.U32) {
					halves.Store(t, wid, sum)
				})
			})
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
	xs := make([]uint32, 100)
	for i := range xs {
		xs[i] = uint32(i + 1)
	}
	inb, _ := runtime.FromSlice(dev, xs)
	wholeb, _ := runtime.Alloc[uint32](dev, 1)
	halvesb, _ := runtime.Alloc[uint32](dev, 2)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, wholeb, halvesb); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(wholeb.ToSlice())
	fmt.Println(halvesb.ToSlice())
	// Output:
	// [338350] <nil>
	// [42925 295425] <nil>
}

// A block of 32 threads scans 100 elements, four or fewer per thread, with
// an operator that is not commutative: "the last non-zero element so far".
// BlockScan gives the block's total too.
func ExampleBlockScan() {
	k := dsl.NewKernel("lastNonZero", 32)
	in := dsl.Input[uint32](k, "in")
	out, total := dsl.Output[uint32](k, "out"), dsl.Output[uint32](k, "total")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			last := func(x, y dsl.U32) dsl.U32 { return dsl.Select(y.Ne(dsl.N(0)), y, x) }
			s := arrays.BlockScan(b, last, arrays.FromArray(in))
			arrays.WriteTo(b, out, s.Exclusive(dsl.N(0)))
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { total.Store(t, dsl.N(0), s.Total()) })
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
	xs := make([]uint32, 100)
	xs[3], xs[40], xs[97] = 7, 9, 5
	inb, _ := runtime.FromSlice(dev, xs)
	outb, _ := runtime.Alloc[uint32](dev, 100)
	totalb, _ := runtime.Alloc[uint32](dev, 1)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb, totalb); err != nil {
		fmt.Println(err)
		return
	}
	got, _ := outb.ToSlice()
	fmt.Println(got[:5], got[40:42], got[97:])
	fmt.Println(totalb.ToSlice())
	// Output:
	// [0 0 0 0 7] [7 9] [9 5 5]
	// [5] <nil>
}
