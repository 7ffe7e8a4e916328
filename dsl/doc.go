// Package dsl is the typed front end of the library: expressions over the
// GPU's scalar types, and programs at the four levels of the GPU hierarchy
// (Grid, Block, Warp, Thread) that record statements into the IR of package
// ir.
//
// Expressions are values of the generic type Exp[T]. Operators that keep the
// type are methods (a.Add(b), a.Lt(b)); anything that changes the type is a
// free generic function (Cast[int32](x)), since Go has neither operator
// overloading nor generic methods.
//
// A kernel is built from a *Kernel: declare its parameters (Input, Output,
// InOut arrays and Param scalars), give its Grid-level body with Body, then
// Build it:
//
//	k := dsl.NewKernel("vadd", 256)
//	a, b := dsl.Input[float32](k, "a"), dsl.Input[float32](k, "b")
//	out := dsl.Output[float32](k, "out")
//	k.Body(func(g *dsl.Grid) {
//		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) {
//			out.Store(t, i, a.At(i).Add(b.At(i)))
//		})
//	})
//	kernel, err := k.Build()
//
// Memory a kernel allocates belongs to a level: Shared arrays to a block,
// WarpShared arrays to each warp (every warp its own region), Local arrays
// to each thread, and Held arrays to each thread of a block for the whole
// block body, across its barriers (the items a CUB thread keeps in
// registers from a tile's load to its store; Kernel.MinBlocks bounds the
// registers they may take). A ConstTable is a table of constants given as Go data,
// read-only, held in CUDA's constant memory (a lookup table, a
// permutation), which belongs to the whole kernel and is no parameter.
//
// A shared array can be filled without passing the elements through the
// threads' registers: Array.CopyAsync copies an element of a global array
// into it asynchronously (cp.async), and the copy lands by the block's
// next Block.Sync, so that the loads' latency passes while the block does
// other work; the evaluator reports any access to the element before that
// barrier as a race.
//
// How a loop runs is the kernel's to say where it matters for speed:
// Block.ForAllUnrolled is Block.ForAll with each thread's loop unrolled by
// a given factor (#pragma unroll), its rounds counted when the count is a
// constant multiple of the block; it runs the same indices, and the
// evaluator ignores the factor.
//
// The level structure follows Obsidian: barriers (Block.Sync, Warp.Sync)
// exist only at Block and Warp level, whose control flow must be the same for
// every thread; thread-dependent code lives in ForAll bodies, at Thread
// level, where no barrier can be written. Mistakes (a builder used outside its
// own body, a barrier under a thread-dependent condition, a shift by a
// constant at least the bit width, a nil builder or body function, a zero
// Exp, Var or Array, a name CUDA already uses, a variable, array or builder
// of one kernel used in another, a shared array used outside the block body
// that allocated it, ...) never panic: they are collected and returned by
// Build, each naming the line of the user's Go code. A mistake made while
// another kernel's body is being recorded is that kernel's error.
package dsl
