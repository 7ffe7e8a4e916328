package arrays_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// reduce is Obsidian's reduceLocal, written once for every level: it
// halves a, combining its halves pairwise with op and computing the result
// into memory of level p, until one element is left. The length must be a
// power of two (as in Obsidian, ZipWith drops the last element of an odd
// one). The Haskell reads:
//
//	reduceLocal :: (t *<=* Block, Compute t, Data a)
//	               => (a -> a -> a)
//	               -> SPull a
//	               -> Program t (SPush t a)
//	reduceLocal f arr
//	  | len arr == 1 = return $ push arr
//	  | otherwise    =
//	    do
//	      let (a1,a2) = halve arr
//	      arr' <- compute $ push $ zipWith f a1 a2
//	      reduceLocal f arr'
func reduce[P arrays.Level, T dsl.Scalar](p P, op arrays.Op[T], a arrays.Pull[T]) arrays.Push[P, T] {
	if n, ok := a.ConstLen(); ok && n <= 1 {
		return arrays.ToPush[P](a)
	}
	a1, a2 := arrays.Halve(a)
	return reduce(p, op, arrays.Compute(p, arrays.ZipWith(op, a1, a2)))
}

// reduceKernel sums its 64 inputs with reduce at every level: the block's
// threads through shared memory, each of two warps its half through its
// own shared memory, each of 16 threads four elements through its local
// arrays.
func reduceKernel() *dsl.Kernel {
	k := dsl.NewKernel("levels", 64)
	in := dsl.Input[uint32](k, "in")
	block, warps, threads := dsl.Output[uint32](k, "block"), dsl.Output[uint32](k, "warps"), dsl.Output[uint32](k, "threads")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			xs := arrays.Take(dsl.N(64), arrays.FromArray(in))
			arrays.WriteTo(b, block, reduce(b, dsl.U32.Add, xs))
			b.ForAllWarps(dsl.N(2), func(w *dsl.Warp, wid dsl.U32) {
				half := arrays.Take(dsl.N(32), arrays.Drop(wid.Mul(dsl.N(32)), xs))
				reduce(w, dsl.U32.Add, half).Run(w, func(t *dsl.Thread, _ dsl.U32, v dsl.U32) { warps.Store(t, wid, v) })
			})
			b.ForAll(dsl.N(16), func(t *dsl.Thread, i dsl.U32) {
				four := arrays.Take(dsl.N(4), arrays.Drop(i.Mul(dsl.N(4)), xs))
				reduce(t, dsl.U32.Add, four).Run(t, func(t *dsl.Thread, _ dsl.U32, v dsl.U32) { threads.Store(t, i, v) })
			})
		})
	})
	return k
}

// One reduce serves a block, a warp and a thread: the sums of 1, ..., 64,
// of each half, and of each run of four.
func Example_reduceAtEveryLevel() {
	kernel, err := reduceKernel().Build()
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
	xs := make([]uint32, 64)
	for i := range xs {
		xs[i] = uint32(i + 1)
	}
	in, _ := runtime.FromSlice(dev, xs)
	block, _ := runtime.Alloc[uint32](dev, 1)
	warps, _ := runtime.Alloc[uint32](dev, 2)
	threads, _ := runtime.Alloc[uint32](dev, 16)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, in, block, warps, threads); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(block.ToSlice())
	fmt.Println(warps.ToSlice())
	fmt.Println(threads.ToSlice())
	// Output:
	// [2080] <nil>
	// [528 1552] <nil>
	// [10 26 42 58 74 90 106 122 138 154 170 186 202 218 234 250] <nil>
}
