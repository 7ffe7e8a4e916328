package dsl_test

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// badInput is a wrong program: build returns what Build says about it,
// which must be an *ir.Error at the line of this file that carries the
// comment "// bad: <name>", saying want.
type badInput struct {
	name  string
	build func() error
	want  string
}

// built builds k and returns Build's error.
func built(k *dsl.Kernel) error {
	_, err := k.Build()
	return err
}

// gridThreads is a kernel of a Grid.ForAll over its output, whose thread
// body is given.
func gridThreads(name string, body func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32])) *dsl.Kernel {
	k := dsl.NewKernel(name, 256)
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { body(t, i, out) })
	})
	return k
}

// blockStep is copyKernel returning Build's error.
func blockStep(step func(b *dsl.Block, in, out dsl.Array[uint32])) error {
	return built(copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) { step(b, in, out) }))
}

// threadStepError is threadStep returning Build's error.
func threadStepError(body func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32])) error {
	return built(threadStep(body))
}

// copyOf gives k, whose input is in, a body copying in to a new output,
// and builds it.
func copyOf(k *dsl.Kernel, in dsl.Array[uint32]) error {
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) })
	})
	return built(k)
}

// firstKernel builds a kernel and returns its Var, scalar parameter, input
// array and shared array, and the builder of one of its thread bodies, for
// rows that use them in another kernel.
func firstKernel() (v dsl.Var[uint32], p dsl.U32, in, sh dsl.Array[uint32], saved *dsl.Thread) {
	k := dsl.NewKernel("first", 256)
	in = dsl.Input[uint32](k, "input")
	p = dsl.Param[uint32](k, "p")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			sh = dsl.Shared[uint32](b, 256)
			b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
				v = dsl.Let(t, in.At(i).Add(p))
				sh.Store(t, i, v.Exp)
				saved = t
			})
			b.Sync()
			b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, sh.At(i)) })
		})
	})
	if _, err := k.Build(); err != nil {
		panic(err) // a mistake of the test itself
	}
	return v, p, in, sh, saved
}

// badInputs lists the wrong programs. Each row's marker is on the line the
// error must name.
func badInputs() []badInput {
	var nilThread *dsl.Thread
	var nilWarp *dsl.Warp
	var nilBlock *dsl.Block
	var nilGrid *dsl.Grid
	var nilKernel *dsl.Kernel
	var zero dsl.Array[uint32]
	return []badInput{
		{"MinBlocks beyond a multiprocessor", func() error {
			k := dsl.NewKernel("bad", 512)
			k.MinBlocks(5) // bad: MinBlocks beyond a multiprocessor
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) { g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, i) }) })
			return built(k)
		}, "MinBlocks(5) of a kernel of 512 threads per block: a multiprocessor holds at most 2048 threads"},
		// Structure: barriers and levels.
		{"barrier under a thread-dependent branch", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.If(dsl.ThreadIdx.Lt(dsl.N(128)), func(b *dsl.Block) { // bad: barrier under a thread-dependent branch
					arrays.Compute(b, arrays.Reverse(arrays.Take(dsl.N(256), arrays.FromArray(in))))
				})
			})
		}, "barrier under a thread-dependent condition"},
		{"barrier in thread code", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					b.Sync() // bad: barrier in thread code
				})
			})
		}, "Block.Sync (a barrier) in the Thread body"},
		{"forAll nested where its level does not allow it", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					b.ForAll(dsl.N(2), func(t *dsl.Thread, j dsl.U32) {}) // bad: forAll nested where its level does not allow it
				})
			})
		}, "Block.ForAll in the Thread body"},
		{"builder used after its body returned", func() error {
			var saved *dsl.Block
			k := copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) { saved = b })
			saved.Sync() // bad: builder used after its body returned
			return built(k)
		}, "which has already returned"},
		{"variable of a block set in thread code", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				v := dsl.Let(b, dsl.N(0))
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					v.Set(i) // bad: variable of a block set in thread code
				})
			})
		}, "Set of v, a Block-level variable"},

		// Expressions.
		{"negative literal for an unsigned type", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.Const[uint32](-1)) // bad: negative literal for an unsigned type
			})
		}, "negative literal -1 for unsigned type uint32"},
		{"shift by the bit width", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Shl(dsl.N(32))) // bad: shift by the bit width
			})
		}, "Shl of a uint32 by constant 32"},
		{"division by constant zero", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Div(dsl.N(0))) // bad: division by constant zero
			})
		}, "Div of a uint32 by constant 0: integer division or remainder by zero"},
		{"CeilDiv by constant zero", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.CeilDiv(in.At(i), dsl.N(0))) // bad: CeilDiv by constant zero
			})
		}, "Div of a uint32 by constant 0"},
		{"shift by a folded constant", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Shl(dsl.N(16).Add(dsl.N(16)))) // bad: shift by a folded constant
			})
		}, "Shl of a uint32 by constant 32: shift count negative or not below the bit width"},
		{"remainder by a folded zero", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Rem(dsl.N(3).Sub(dsl.N(3)))) // bad: remainder by a folded zero
			})
		}, "Rem of a uint32 by constant 0"},
		{"shift of a float", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				x := dsl.Lit[float32](1).Shl(dsl.Lit[float32](2)) // bad: shift of a float
				out.Store(t, i, dsl.Cast[uint32](x))
			})
		}, "Shl on float32 values"},
		{"zero Exp", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				var never dsl.U32
				out.Store(t, i, never) // bad: zero Exp
			})
		}, "use of a zero Exp"},
		{"zero Exp inside an expression", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				var never dsl.U32
				x := dsl.Let(t, in.At(i).Add(never)) // bad: zero Exp inside an expression
				out.Store(t, i, x.Exp)
			})
		}, "use of a zero Exp"},

		// Arrays and parameters.
		{"two parameters of one name", func() error {
			k := dsl.NewKernel("twice", 256)
			a := dsl.Input[uint32](k, "a")
			b := dsl.Output[uint32](k, "a") // bad: two parameters of one name
			k.Body(func(g *dsl.Grid) {
				g.ForAll(b.Len(), func(t *dsl.Thread, i dsl.U32) { b.Store(t, i, a.At(i)) })
			})
			return built(k)
		}, "kernel twice has two parameters named a"},
		{"write to an input array", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				in.Store(t, i, dsl.N(1)) // bad: write to an input array
			})
		}, "store to array input, an input of the kernel"},
		{"read of an output array", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, out.At(i)) // bad: read of an output array
			})
		}, "load from array output, an output of the kernel"},
		{"alignment not a power of two", func() error {
			k := dsl.NewKernel("align3", 256)
			return copyOf(k, dsl.Input[uint32](k, "input").Aligned(12)) // bad: alignment not a power of two
		}, "an alignment of 12 bytes: want a power of two"},
		{"alignment wider than 16 bytes", func() error {
			k := dsl.NewKernel("align32", 256)
			return copyOf(k, dsl.Input[uint32](k, "input").Aligned(32)) // bad: alignment wider than 16 bytes
		}, "want at most 16"},
		{"alignment below the element's size", func() error {
			k := dsl.NewKernel("align2", 256)
			return copyOf(k, dsl.Input[uint32](k, "input").Aligned(2)) // bad: alignment below the element's size
		}, "want at least their size, 4"},
		{"alignment of a shared array", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				dsl.Shared[uint32](b, 64).Aligned(16) // bad: alignment of a shared array
			})
		}, "only global array parameters declare one"},
		{"alignment declared in the body", func() error {
			k := dsl.NewKernel("alignLate", 256)
			in := dsl.Input[uint32](k, "input")
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				in.Aligned(16) // bad: alignment declared in the body
				g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) })
			})
			return built(k)
		}, "Aligned in or after the kernel's body"},
		{"alignment of a zero Array", func() error {
			k := dsl.NewKernel("alignZero", 256)
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				zero.Aligned(16) // bad: alignment of a zero Array
				g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, i) })
			})
			return built(k)
		}, "Aligned on a zero Array"},
		{"store to a zero Array", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				zero.Store(t, i, i) // bad: store to a zero Array
			})
		}, "Store on a zero Array"},
		{"read of a zero Array", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, zero.At(i)) // bad: read of a zero Array
			})
		}, "read of a zero Array"},
		{"length of a zero Array", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, zero.Len()) // bad: length of a zero Array
			})
		}, "length of a zero Array"},
		{"atomic on a zero Array", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, zero.Fetch(t, dsl.AtomicAdd, i, i)) // bad: atomic on a zero Array
			})
		}, "AtomicAdd on a zero Array"},

		// Shared memory.
		{"shared memory over the device limit", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.ComputeInto(b, dsl.Shared[uint32](b, 1<<17), arrays.FromArray(in)) // bad: shared memory over the device limit
			})
		}, "shared memory: array sh ends at byte 524288"},
		{"shared array whose size in bytes wraps", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				sh := dsl.Shared[uint32](b, 1<<62) // bad: shared array whose size in bytes wraps
				arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](arrays.ComputeInto(b, sh, arrays.Take(dsl.N(256), arrays.FromArray(in)))))
			})
		}, "shared memory: array sh of 4611686018427387904 elements of uint32 is larger than any GPU's"},
		{"shared array of no elements", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				dsl.Shared[uint32](b, -1) // bad: shared array of no elements
			})
		}, "shared array of -1 elements"},
		{"Compute of a length that is not constant", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.Compute(b, arrays.FromArray(in)) // bad: Compute of a length that is not constant
			})
		}, "not a constant"},
		{"shared array read in a later block body", func() error {
			k := dsl.NewKernel("later", 256)
			in := dsl.Input[uint32](k, "input")
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				var sh dsl.Array[uint32]
				g.ForAllBlocks(dsl.N(2), func(b *dsl.Block, bid dsl.U32) {
					sh = dsl.Shared[uint32](b, 256)
					b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { sh.Store(t, i, in.At(bid.Mul(dsl.N(256)).Add(i))) })
					b.Sync()
				})
				g.ForAllBlocks(dsl.N(2), func(b *dsl.Block, bid dsl.U32) {
					b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
						out.Store(t, bid.Mul(dsl.N(256)).Add(i), sh.At(i)) // bad: shared array read in a later block body
					})
				})
			})
			return built(k)
		}, "but it belongs to the one at"},
		{"shared array used in grid-level thread code", func() error {
			k := dsl.NewKernel("outside", 256)
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				var sh dsl.Array[uint32]
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) { sh = dsl.Shared[uint32](b, 256) })
				g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, sh.At(i.And(dsl.N(255)))) // bad: shared array used in grid-level thread code
				})
			})
			return built(k)
		}, "is used outside a block body"},

		// Names CUDA rejects or already has.
		{"kernel named main", func() error {
			k := dsl.NewKernel("main", 256) // bad: kernel named main
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `kernel main: name "main" is the name of a program's entry point`},
		{"kernel named printf", func() error {
			k := dsl.NewKernel("printf", 256) // bad: kernel named printf
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `name "printf" is a function of CUDA's device runtime`},
		{"kernel named malloc", func() error {
			k := dsl.NewKernel("malloc", 256) // bad: kernel named malloc
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `name "malloc" is a function of CUDA's device runtime`},
		{"kernel named sqrt", func() error {
			k := dsl.NewKernel("sqrt", 256) // bad: kernel named sqrt
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `name "sqrt" is a function of CUDA's math library`},
		{"kernel named like a keyword", func() error {
			k := dsl.NewKernel("template", 256) // bad: kernel named like a keyword
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `name "template" is a C++ keyword`},
		{"kernel named like a built-in variable", func() error {
			k := dsl.NewKernel("blockDim", 256) // bad: kernel named like a built-in variable
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `name "blockDim" is a CUDA built-in variable`},
		{"kernel name reserved in C++", func() error {
			k := dsl.NewKernel("__scan", 256) // bad: kernel name reserved in C++
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, "is reserved in C++"},
		{"kernel name with a capital after an underscore", func() error {
			k := dsl.NewKernel("_Scan", 256) // bad: kernel name with a capital after an underscore
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, "is reserved in C++"},
		{"kernel name that is not an identifier", func() error {
			k := dsl.NewKernel("scan-1", 256) // bad: kernel name that is not an identifier
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `name "scan-1" is not a C identifier`},
		{"kernel named like a prelude function", func() error {
			k := dsl.NewKernel("fminf", 256) // bad: kernel named like a prelude function
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `name "fminf" is a function of CUDA's math library`},
		{"parameter named like a math function", func() error {
			k := dsl.NewKernel("scan", 256)
			return copyOf(k, dsl.Input[uint32](k, "sqrtf")) // bad: parameter named like a math function
		}, `parameter "sqrtf" of kernel scan: name "sqrtf" is a function of CUDA's math library`},
		{"parameter named like the kernel", func() error {
			k := dsl.NewKernel("scan", 256)
			return copyOf(k, dsl.Input[uint32](k, "scan")) // bad: parameter named like the kernel
		}, `parameter "scan" of kernel scan is named like the kernel`},
		{"parameter named like the length of an array", func() error {
			k := dsl.NewKernel("scan", 256)
			dsl.Param[uint32](k, "input_len")
			return copyOf(k, dsl.Input[uint32](k, "input")) // bad: parameter named like the length of an array
		}, `array parameter "input" of kernel scan: its length would be named input_len, like a parameter`},
		{"parameter named like an array's length", func() error {
			k := dsl.NewKernel("scan", 256)
			in := dsl.Input[uint32](k, "input")
			dsl.Param[uint32](k, "input_len") // bad: parameter named like an array's length
			return copyOf(k, in)
		}, `parameter "input_len" of kernel scan is named like the length of array input`},
		{"parameter named like a generated local", func() error {
			k := dsl.NewKernel("scan", 256)
			return copyOf(k, dsl.Input[uint32](k, "i_")) // bad: parameter named like a generated local
		}, "ends in an underscore, which is kept for generated locals"},
		{"parameter named like a built-in type", func() error {
			k := dsl.NewKernel("scan", 256)
			return copyOf(k, dsl.Input[uint32](k, "uint4")) // bad: parameter named like a built-in type
		}, `name "uint4" is a CUDA built-in type`},
		{"parameter named like the shared memory", func() error {
			k := dsl.NewKernel("scan", 256)
			return copyOf(k, dsl.Input[uint32](k, "smem")) // bad: parameter named like the shared memory
		}, `name "smem" is a name the printed code uses`},

		// Nil builders, nil kernels, nil bodies, zero values.
		{"Store with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(nilThread, i, i) // bad: Store with a nil thread
			}))
		}, "Store on a nil builder (*dsl.Thread)"},
		{"StoreSame with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.StoreSame(nilThread, i, i) // bad: StoreSame with a nil thread
			}))
		}, "Store on a nil builder (*dsl.Thread)"},
		{"Atomic with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Atomic(nilThread, dsl.AtomicAdd, i, i) // bad: Atomic with a nil thread
			}))
		}, "AtomicAdd on a nil builder (*dsl.Thread)"},
		{"CAS with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, out.CAS(nilThread, i, i, i)) // bad: CAS with a nil thread
			}))
		}, "AtomicCAS on a nil builder (*dsl.Thread)"},
		{"Shuffle with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.Shuffle(nilThread, dsl.ShuffleXor, i, dsl.N(1))) // bad: Shuffle with a nil thread
			}))
		}, "Shuffle(mode 4) on a nil builder (*dsl.Thread)"},
		{"Ballot with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.Ballot(nilThread, i.Lt(dsl.N(3)))) // bad: Ballot with a nil thread
			}))
		}, "Ballot on a nil builder (*dsl.Thread)"},
		{"Agree with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.Agree(nilThread, i.Lt(dsl.N(3)))) // bad: Agree with a nil thread
			}))
		}, "Agree on a nil builder (*dsl.Thread)"},
		{"MatchAny with a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.MatchAny(nilThread, i)) // bad: MatchAny with a nil thread
			}))
		}, "MatchAny on a nil builder (*dsl.Thread)"},
		{"MatchAny of a uint16", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.MatchAny(t, dsl.Cast[uint16](in.At(i)))) // bad: MatchAny of a uint16
			})
		}, "match of a uint16 value; MatchAny compares 32 and 64-bit integers and floats"},
		{"MatchAny of an int8", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.MatchAny(t, dsl.Cast[int8](in.At(i)))) // bad: MatchAny of an int8
			})
		}, "match of a int8 value"},
		{"MatchAny of a zero Exp", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				var zero dsl.I64
				out.Store(t, i, dsl.MatchAny(t, zero)) // bad: MatchAny of a zero Exp
			})
		}, "use of a zero Exp"},
		{"MatchAny under an if of the lane", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				t.If(i.Lt(dsl.N(7)), func(t *dsl.Thread) {
					out.Store(t, i, dsl.MatchAny(t, in.At(i))) // bad: MatchAny under an if of the lane
				})
			})
		}, "a match needs all 32 lanes of a warp, but here it is under an if or a loop whose condition may differ"},
		{"shuffle under an if on a value of another lane", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				neighbour := dsl.Shuffle(t, dsl.ShuffleIdx, in.At(i), i.Xor(dsl.N(1))) // differs between lanes
				t.If(neighbour.Gt(dsl.N(3)), func(t *dsl.Thread) {
					out.Store(t, i, dsl.Shuffle(t, dsl.ShuffleXor, i, dsl.N(1))) // bad: shuffle under an if on a value of another lane
				})
			})
		}, "a shuffle needs all 32 lanes of a warp, but here it is under an if or a loop whose condition may differ"},
		{"ballot under a while on a lane's own value", func() error {
			return threadStepError(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				n := dsl.Let(t, dsl.N(0))
				t.While(n.Lt(in.At(i)), func(t *dsl.Thread) {
					n.Set(n.Add(dsl.Ballot(t, i.Lt(n.Exp)))) // bad: ballot under a while on a lane's own value
				})
				out.Store(t, i, n.Exp)
			})
		}, "a ballot needs all 32 lanes of a warp, but here it is under an if or a loop whose condition may differ"},
		{"Any in a partial ForAll", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(100), func(t *dsl.Thread, i dsl.U32) {
					t.If(dsl.Any(t, in.At(i).Gt(dsl.N(3))), func(t *dsl.Thread) { // bad: Any in a partial ForAll
						out.Store(t, i, i)
					})
				})
			})
		}, "a ballot needs all 32 lanes of a warp: it must be in a WarpLanes ForAll of a count that is a multiple of 32"},
		{"Let on a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				x := dsl.Let(nilThread, i) // bad: Let on a nil thread
				out.Store(t, i, x.Exp)
			}))
		}, "Let on a nil builder (*dsl.Thread)"},
		{"Let on a nil Program", func() error {
			return built(gridThreads("nilProgram", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				dsl.Let(nil, i) // bad: Let on a nil Program
			}))
		}, "Let on a nil builder (<nil>)"},
		{"If on a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				nilThread.If(i.Lt(dsl.N(3)), func(*dsl.Thread) {}) // bad: If on a nil thread
			}))
		}, "If on a nil builder (*dsl.Thread)"},
		{"For on a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				nilThread.For(i, func(*dsl.Thread, dsl.U32) {}) // bad: For on a nil thread
			}))
		}, "For on a nil builder (*dsl.Thread)"},
		{"ForAll on a nil thread", func() error {
			return built(gridThreads("nilThread", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				nilThread.ForAll(i, func(*dsl.Thread, dsl.U32) {}) // bad: ForAll on a nil thread
			}))
		}, "Thread.ForAll on a nil builder (*dsl.Thread)"},
		{"Sync on a nil block", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				nilBlock.Sync() // bad: Sync on a nil block
			})
		}, "Block.Sync (a barrier) on a nil builder (*dsl.Block)"},
		{"ForAll on a nil block", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				nilBlock.ForAll(dsl.N(3), func(*dsl.Thread, dsl.U32) {}) // bad: ForAll on a nil block
			})
		}, "Block.ForAll on a nil builder (*dsl.Block)"},
		{"ForAllUnrolled by a negative factor", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllUnrolled(dsl.N(512), -2, func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) }) // bad: ForAllUnrolled by a negative factor
			})
		}, "BlockThreads ForAll unrolled by -2; it must be 0 (the compiler's choice) to 64"},
		{"ForAllUnrolled by too large a factor", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllUnrolled(in.Len(), ir.MaxUnroll+1, func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) }) // bad: ForAllUnrolled by too large a factor
			})
		}, "BlockThreads ForAll unrolled by 65; it must be 0 (the compiler's choice) to 64"},
		{"ForAllWarps on a nil block", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				nilBlock.ForAllWarps(dsl.N(3), func(*dsl.Warp, dsl.U32) {}) // bad: ForAllWarps on a nil block
			})
		}, "Block.ForAllWarps on a nil builder (*dsl.Block)"},
		{"IfElse on a nil block", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				nilBlock.IfElse(dsl.Lit(true), func(*dsl.Block) {}, func(*dsl.Block) {}) // bad: IfElse on a nil block
			})
		}, "IfElse on a nil builder (*dsl.Block)"},
		{"Shared on a nil block", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				dsl.Shared[uint32](nilBlock, 4) // bad: Shared on a nil block
			})
		}, "Shared on a nil builder (*dsl.Block)"},
		{"Sync on a nil warp", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(8), func(w *dsl.Warp, _ dsl.U32) {
					nilWarp.Sync() // bad: Sync on a nil warp
				})
			})
		}, "Warp.Sync (a barrier) on a nil builder (*dsl.Warp)"},
		{"ForAll on a nil warp", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(8), func(w *dsl.Warp, _ dsl.U32) {
					nilWarp.ForAll(dsl.N(32), func(*dsl.Thread, dsl.U32) {}) // bad: ForAll on a nil warp
				})
			})
		}, "Warp.ForAll on a nil builder (*dsl.Warp)"},
		{"While on a nil grid", func() error {
			return built(gridThreads("nilGrid", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				nilGrid.While(dsl.Lit(false), func(*dsl.Grid) {}) // bad: While on a nil grid
			}))
		}, "While on a nil builder (*dsl.Grid)"},
		{"ForAllBlocks on a nil grid", func() error {
			return built(gridThreads("nilGrid", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				nilGrid.ForAllBlocks(dsl.N(1), func(*dsl.Block, dsl.U32) {}) // bad: ForAllBlocks on a nil grid
			}))
		}, "Grid.ForAllBlocks on a nil builder (*dsl.Grid)"},
		{"Body(nil)", func() error {
			k := dsl.NewKernel("nobody", 256)
			k.Body(nil) // bad: Body(nil)
			return built(k)
		}, "kernel nobody: Body(nil)"},
		{"If with a nil body", func() error {
			return built(gridThreads("nilBody", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				t.If(i.Lt(dsl.N(3)), nil) // bad: If with a nil body
			}))
		}, "If with a nil body function"},
		{"IfElse with a nil else", func() error {
			return built(gridThreads("nilBody", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				t.IfElse(i.Lt(dsl.N(3)), func(*dsl.Thread) {}, nil) // bad: IfElse with a nil else
			}))
		}, "IfElse with a nil body function"},
		{"ForAll with a nil body", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(3), nil) // bad: ForAll with a nil body
			})
		}, "Block.ForAll with a nil body function"},
		{"While with a nil body", func() error {
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.While(dsl.Lit(false), nil) // bad: While with a nil body
			})
		}, "While with a nil body function"},
		{"Build of a nil kernel", func() error {
			_, err := nilKernel.Build() // bad: Build of a nil kernel
			return err
		}, "Build of a nil *Kernel"},
		{"parameter of a nil kernel", func() error {
			p := dsl.Param[uint32](nilKernel, "p") // bad: parameter of a nil kernel
			return built(gridThreads("nilKernel", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, p)
			}))
		}, "use of parameter p, declared on a nil *Kernel"},
		{"array of a nil kernel declared in a body", func() error {
			return built(gridThreads("nilKernel", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				dsl.Input[uint32](nilKernel, "late") // bad: array of a nil kernel declared in a body
			}))
		}, "input array late declared on a nil *Kernel"},
		{"Set of a zero Var", func() error {
			return built(gridThreads("zeroVar", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				var v dsl.Var[uint32]
				v.Set(i) // bad: Set of a zero Var
			}))
		}, "Set of a zero Var"},

		// Objects of one kernel used in another.
		{"Set of another kernel's variable", func() error {
			v, _, _, _, _ := firstKernel()
			return built(gridThreads("second", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				v.Set(i) // bad: Set of another kernel's variable
				out.Store(t, i, i)
			}))
		}, "Set of variable v of kernel first, in the body of kernel second"},
		{"read of another kernel's variable", func() error {
			v, _, _, _, _ := firstKernel()
			return built(gridThreads("second", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, v.Exp) // bad: read of another kernel's variable
			}))
		}, "variable v is not a variable or parameter of kernel second"},
		{"another kernel's parameter", func() error {
			_, p, _, _, _ := firstKernel()
			return built(gridThreads("second", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, p) // bad: another kernel's parameter
			}))
		}, "variable p is not a variable or parameter of kernel second"},
		{"another kernel's input array", func() error {
			_, _, in, _, _ := firstKernel()
			return built(gridThreads("second", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i)) // bad: another kernel's input array
			}))
		}, "array input is not an array of kernel second"},
		{"another kernel's shared array", func() error {
			_, _, _, sh, _ := firstKernel()
			return blockStep(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					sh.Store(t, i, in.At(i)) // bad: another kernel's shared array
				})
			})
		}, "array sh is not an array of kernel bad"},
		{"another kernel's builder", func() error {
			_, _, _, _, saved := firstKernel()
			return built(gridThreads("second", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(saved, i, i) // bad: another kernel's builder
			}))
		}, "Store on a builder of kernel first, in the body of kernel second"},
		{"outer kernel's builder in a nested kernel body", func() error {
			var inner *dsl.Kernel
			outer := gridThreads("outer", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				inner = gridThreads("inner", func(_ *dsl.Thread, j dsl.U32, _ dsl.Array[uint32]) {
					out.Store(t, j, j) // bad: outer kernel's builder in a nested kernel body
				})
				out.Store(t, i, i)
			})
			if err := built(outer); err != nil {
				return fmt.Errorf("the outer kernel fails: %w", err)
			}
			return built(inner)
		}, "Store on a builder of kernel outer, in the body of kernel inner"},
		// Loop counts the level cannot take.
		{"grid loop over a count loaded from memory", func() error {
			k := dsl.NewKernel("bad", 256)
			in := dsl.Input[uint32](k, "input")
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				g.ForAll(in.At(dsl.N(0)), func(t *dsl.Thread, i dsl.U32) { // bad: grid loop over a count loaded from memory
					out.Store(t, i, i)
				})
			})
			return built(k)
		}, "GridThreads ForAll sizes the launch, so the host computes it"},
		{"block loop over a count loaded from memory", func() error {
			k := dsl.NewKernel("bad", 256)
			in := dsl.Input[uint32](k, "input")
			k.Body(func(g *dsl.Grid) {
				g.ForAllBlocks(in.At(dsl.N(0)), func(b *dsl.Block, _ dsl.U32) {}) // bad: block loop over a count loaded from memory
			})
			return built(k)
		}, "it uses a load of array input"},
		{"grid loop over a Grid variable loaded from memory", func() error {
			k := dsl.NewKernel("bad", 256)
			in := dsl.Input[uint32](k, "input")
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				n := dsl.Let(g, in.At(dsl.N(0)))
				g.ForAll(n.Exp, func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, i) }) // bad: grid loop over a Grid variable loaded from memory
			})
			return built(k)
		}, "GridThreads ForAll sizes the launch"},
		// Constant tables.
		{"constant table with no elements", func() error {
			k := dsl.NewKernel("bad", 256)
			dsl.ConstTable(k, "tab", []uint32{}) // bad: constant table with no elements
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `constant table "tab" of kernel bad has no elements`},
		{"constant table named like a parameter", func() error {
			k := dsl.NewKernel("bad", 256)
			in := dsl.Input[uint32](k, "input")
			dsl.ConstTable(k, "input", []uint32{1}) // bad: constant table named like a parameter
			return copyOf(k, in)
		}, `constant table "input" of kernel bad is named like a parameter`},
		{"constant table named like the kernel", func() error {
			k := dsl.NewKernel("bad", 256)
			dsl.ConstTable(k, "bad", []uint32{1}) // bad: constant table named like the kernel
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `constant table "bad" of kernel bad is named like the kernel`},
		{"constant table named like a CUDA built-in", func() error {
			k := dsl.NewKernel("bad", 256)
			dsl.ConstTable(k, "threadIdx", []uint32{1}) // bad: constant table named like a CUDA built-in
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, `constant table "threadIdx" of kernel bad: `},
		{"constant tables past constant memory", func() error {
			k := dsl.NewKernel("bad", 256)
			dsl.ConstTable(k, "big1", make([]uint32, 8<<10))
			dsl.ConstTable(k, "big2", make([]float32, 8<<10))
			dsl.ConstTable(k, "more", []uint8{1}) // bad: constant tables past constant memory
			return copyOf(k, dsl.Input[uint32](k, "input"))
		}, "make the kernel's tables 65537 bytes; constant memory holds 65536"},
		{"NaN in a constant table", func() error {
			k := dsl.NewKernel("bad", 256)
			tab := dsl.ConstTable(k, "tab", []float32{1, float32(math.NaN())}) // bad: NaN in a constant table
			out := dsl.Output[float32](k, "output")
			k.Body(func(g *dsl.Grid) {
				g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, tab.At(i.And(dsl.N(1)))) })
			})
			return built(k)
		}, "element 1 of constant table tab is a NaN"},
		{"store to a constant table", func() error {
			k := dsl.NewKernel("bad", 256)
			tab := dsl.ConstTable(k, "tab", []uint32{1, 2})
			return built(gridThreadsOf(k, func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				tab.Store(t, i, i) // bad: store to a constant table
			}))
		}, "Store on constant table tab, which is read-only"},
		{"atomic on a constant table", func() error {
			k := dsl.NewKernel("bad", 256)
			tab := dsl.ConstTable(k, "tab", []uint32{1, 2})
			return built(gridThreadsOf(k, func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				out.Store(t, i, tab.Fetch(t, dsl.AtomicAdd, i, i)) // bad: atomic on a constant table
			}))
		}, "AtomicAdd on constant table tab, which is read-only"},
		{"constant table of a nil kernel", func() error {
			return built(gridThreads("nilKernel", func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32]) {
				dsl.ConstTable(nilKernel, "tab", []uint32{1}) // bad: constant table of a nil kernel
			}))
		}, "constant table tab declared on a nil *Kernel"},
	}
}

// gridThreadsOf is gridThreads for the kernel k, already begun.
func gridThreadsOf(k *dsl.Kernel, body func(t *dsl.Thread, i dsl.U32, out dsl.Array[uint32])) *dsl.Kernel {
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { body(t, i, out) })
	})
	return k
}

// TestBadInputCatalogue builds every wrong program of badInputs, each under
// a deadline and with panics recovered, and checks that Build rejects it
// with an *ir.Error at the marked line saying what is wrong.
func TestBadInputCatalogue(t *testing.T) {
	const deadline = 10 * time.Second
	for _, c := range badInputs() {
		t.Run(c.name, func(t *testing.T) {
			type result struct {
				err   error
				panic any
			}
			done := make(chan result, 1)
			go func() {
				defer func() {
					if r := recover(); r != nil {
						done <- result{panic: r}
					}
				}()
				done <- result{err: c.build()}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(deadline):
				t.Fatalf("still building after %v", deadline)
			}
			if r.panic != nil {
				t.Fatalf("panic: %v", r.panic)
			}
			if r.err == nil {
				t.Fatal("Build accepted a wrong program")
			}
			line := markerLineIn(t, "catalogue_test.go", c.name)
			if e := errorAt(r.err, "catalogue_test.go", line); e == nil || !strings.Contains(e.Msg, c.want) {
				t.Errorf("no *ir.Error at catalogue_test.go:%d saying %q:\n%v", line, c.want, r.err)
			}
		})
	}
}

// errorAt returns the first *ir.Error in err (a tree of joined errors) at
// line of the file of that base name, or nil.
func errorAt(err error, file string, line int) *ir.Error {
	var e *ir.Error
	if errors.As(err, &e) && filepath.Base(e.Pos.File) == file && e.Pos.Line == line {
		return e
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, x := range joined.Unwrap() {
			if e := errorAt(x, file, line); e != nil {
				return e
			}
		}
	}
	return nil
}
