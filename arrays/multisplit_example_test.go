package arrays_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// The stable partition of a warp's elements into evens and odds, each
// group in its input order, with the number of evens.
func ExamplePartition() {
	k := dsl.NewKernel("evensFirst", 32)
	in := dsl.Input[uint32](k, "in")
	out, evens := dsl.Output[uint32](k, "out"), dsl.Output[uint32](k, "evens")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) {
				even := func(x dsl.U32) dsl.Bool { return x.And(dsl.N(1)).Eq(dsl.N(0)) }
				arrays.WriteTo(w, out, arrays.Partition[*dsl.Warp](even, arrays.FromArray(in)))
				arrays.WriteTo(w, evens, arrays.PartitionCount[*dsl.Warp](even, arrays.FromArray(in)))
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
	inb, _ := runtime.FromSlice(dev, []uint32{5, 8, 3, 2, 9, 4, 7, 6, 1, 0, 11})
	outb, _ := runtime.Alloc[uint32](dev, 11)
	evensb, _ := runtime.Alloc[uint32](dev, 1)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb, evensb); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(outb.ToSlice())
	fmt.Println(evensb.ToSlice())
	// Output:
	// [8 2 4 6 0 5 3 9 7 1 11] <nil>
	// [5] <nil>
}

// One pass of a radix sort in a block of 64 threads: the keys ranked by
// their low 4 bits (BlockMultisplit), moved to their ranks in shared
// memory (ScatterByRank and Force), with the digits' histogram and
// offsets.
func ExampleBlockMultisplit() {
	const bits, n = 4, 12
	k := dsl.NewKernel("radixPass", 64)
	in := dsl.Input[uint32](k, "in")
	out, counts, offsets := dsl.Output[uint32](k, "out"), dsl.Output[uint32](k, "counts"),
		dsl.Output[uint32](k, "offsets")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			keys := arrays.Take(dsl.N(n), arrays.FromArray(in))
			m := arrays.BlockMultisplit(b, bits, keys, func(k dsl.U32) dsl.U32 { return k }) // the low 4 bits count
			sorted := arrays.Force(b, arrays.ScatterByRank(m.Ranks(), keys))
			arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](sorted))
			arrays.WriteTo(b, counts, arrays.ToPush[*dsl.Block](m.Counts()))
			arrays.WriteTo(b, offsets, arrays.ToPush[*dsl.Block](m.Offsets()))
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
	inb, _ := runtime.FromSlice(dev, []uint32{0x13, 0x21, 0x05, 0x33, 0x11, 0x4f, 0x02, 0x55, 0x61, 0x7f, 0x83, 0x90})
	outb, _ := runtime.Alloc[uint32](dev, n)
	countsb, _ := runtime.Alloc[uint32](dev, 1<<bits)
	offsetsb, _ := runtime.Alloc[uint32](dev, 1<<bits)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb, countsb, offsetsb); err != nil {
		fmt.Println(err)
		return
	}
	sorted, _ := outb.ToSlice()
	fmt.Printf("%#x\n", sorted)
	fmt.Println(countsb.ToSlice())
	fmt.Println(offsetsb.ToSlice())
	// Output:
	// [0x90 0x21 0x11 0x61 0x2 0x13 0x33 0x83 0x5 0x55 0x4f 0x7f]
	// [1 3 1 3 0 2 0 0 0 0 0 0 0 0 0 2] <nil>
	// [0 1 4 5 8 8 10 10 10 10 10 10 10 10 10 10] <nil>
}

// The same pass with the keys held in the threads' registers, as a radix
// sort pass holds them (CUB's threads hold their items): NewHeld and Load
// deal 64 threads 2 keys each (slot j of lane l of warp w is key
// 64w + 32j + l), BlockMultisplitHeld ranks them with each key's rank
// within its warp kept in a register, and ScatterBy writes each key at its
// rank, straight to the output.
func ExampleBlockMultisplitHeld() {
	const bits, n = 4, 12
	k := dsl.NewKernel("heldPass", 64)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			keys := arrays.NewHeld[uint32](b, 2, dsl.N(n))
			keys.Load(b, arrays.FromArray(in))
			m := arrays.BlockMultisplitHeld(b, bits, keys, func(k dsl.U32) dsl.U32 { return k }) // the low 4 bits count
			arrays.WriteTo(b, out, keys.ScatterBy(m.HeldRanks(b)))
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
	inb, _ := runtime.FromSlice(dev, []uint32{0x13, 0x21, 0x05, 0x33, 0x11, 0x4f, 0x02, 0x55, 0x61, 0x7f, 0x83, 0x90})
	outb, _ := runtime.Alloc[uint32](dev, n)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb); err != nil {
		fmt.Println(err)
		return
	}
	sorted, _ := outb.ToSlice()
	fmt.Printf("%#x\n", sorted)
	// Output:
	// [0x90 0x21 0x11 0x61 0x2 0x13 0x33 0x83 0x5 0x55 0x4f 0x7f]
}

// A radix sort pass's tile with a shortcut for a tile of one digit, as
// the radix sort of sorts/kernels runs it: NewMultisplitCounters zeroes
// the ranking's counters first, UniformBits folds each thread's keys with
// & and | to find whether all have one digit (a barrier), and only a tile
// of several digits is ranked, by BlockMultisplitHeldOn on the counters
// that barrier has already made safe to count on. A tile of one digit
// keeps its order.
func ExampleBlockMultisplitHeldOn() {
	const bits, n = 4, 12
	k := dsl.NewKernel("tileOfOneDigit", 64)
	in := dsl.Input[uint32](k, "in")
	out, only := dsl.Output[uint32](k, "out"), dsl.Output[uint32](k, "only")
	digit := func(k dsl.U32) dsl.U32 { return k.And(dsl.N(1<<bits - 1)) } // the low 4 bits
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			counters := arrays.NewMultisplitCounters(b, bits)
			keys := arrays.NewHeld[uint32](b, 2, dsl.N(n))
			keys.Load(b, arrays.FromArray(in))
			value, one := arrays.UniformBits(keys, b, digit)
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				only.Store(t, dsl.N(0), dsl.Select(one, value, dsl.N(1<<bits))) // 16: several digits
			})
			b.IfElse(one, func(b *dsl.Block) { arrays.WriteTo(b, out, keys.Push()) }, func(b *dsl.Block) {
				m := arrays.BlockMultisplitHeldOn(b, counters, keys, digit)
				arrays.WriteTo(b, out, keys.ScatterBy(m.HeldRanks(b)))
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
	for _, tile := range [][]uint32{
		{0x13, 0x21, 0x05, 0x33, 0x11, 0x4f, 0x02, 0x55, 0x61, 0x7f, 0x83, 0x90},
		{0x17, 0x27, 0x07, 0x37, 0x57, 0x47, 0x67, 0x97, 0x87, 0x77, 0xa7, 0xf7},
	} {
		inb, _ := runtime.FromSlice(dev, tile)
		outb, _ := runtime.Alloc[uint32](dev, n)
		onlyb, _ := runtime.Alloc[uint32](dev, 1)
		if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb, onlyb); err != nil {
			fmt.Println(err)
			return
		}
		sorted, _ := outb.ToSlice()
		digits, _ := onlyb.ToSlice()
		if digits[0] < 1<<bits {
			fmt.Printf("%#x (all of digit %d)\n", sorted, digits[0])
		} else {
			fmt.Printf("%#x (ranked)\n", sorted)
		}
	}
	// Output:
	// [0x90 0x21 0x11 0x61 0x2 0x13 0x33 0x83 0x5 0x55 0x4f 0x7f] (ranked)
	// [0x17 0x27 0x7 0x37 0x57 0x47 0x67 0x97 0x87 0x77 0xa7 0xf7] (all of digit 7)
}
