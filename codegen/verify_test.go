package codegen

import (
	"github.com/obsidian-go/obsidian/check"
	"regexp"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// threadBody is a kernel whose block program is one BlockThreads ForAll of
// the block size over the given thread statements (index i, line 10), with
// arrays in (input), out (output), rw (read-write), all uint32, and a
// shared array sh.
func threadBody(stmts func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt) *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	rw, sh := global("rw", ir.Uint32, ir.ReadWrite, 4), shared("sh", ir.Uint32, 256, 5)
	i := v("i", ir.Uint32)
	return kernel("k", []*ir.Array{in, out, rw}, []*ir.Array{sh},
		blocks(1, 9, forAll(ir.BlockThreads, i, u32(256), 10, stmts(i, in, out, rw, sh)...)))
}

func TestVerifyAcceptsTheConstructKernels(t *testing.T) {
	for _, k := range append(constructKernels(), gridCopy("copy", ir.Int64, func(x ir.Expr) ir.Expr { return x })) {
		if err := Verify(k, DefaultTarget); err != nil {
			t.Errorf("kernel %s: %v", k.Name, err)
		}
	}
}

func TestVerifyErrors(t *testing.T) {
	type thread = func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt
	one := func(s ir.Stmt) thread {
		return func(*ir.Var, *ir.Array, *ir.Array, *ir.Array, *ir.Array) []ir.Stmt { return []ir.Stmt{s} }
	}
	x, y, f, b := v("x", ir.Uint32), v("y", ir.Int32), v("f", ir.Float32), v("bb", ir.Bool)
	cases := []struct {
		name   string
		kernel func() *ir.Kernel
		line   int
		msg    string
	}{
		{"binary operand types", func() *ir.Kernel {
			return threadBody(one(decl(x, bin(ir.Add, u32(1), i32(1)), 20)))
		}, 20, "Add: operands have different types, uint32 and int32"},
		{"shift count type", func() *ir.Kernel {
			return threadBody(one(decl(x, bin(ir.Shl, u32(1), i32(1)), 20)))
		}, 20, "Shl: value and shift count have different types"},
		{"arithmetic on bool", func() *ir.Kernel {
			return threadBody(one(decl(b, bin(ir.Add, val(ir.BoolValue(true)), val(ir.BoolValue(true))), 20)))
		}, 20, "Add on bool values"},
		{"bitwise on float", func() *ir.Kernel {
			return threadBody(one(decl(f, bin(ir.And, val(ir.FloatValue(ir.Float32, 1)), val(ir.FloatValue(ir.Float32, 1))), 20)))
		}, 20, "And on float32 values"},
		{"select condition", func() *ir.Kernel {
			return threadBody(one(decl(x, &ir.Select{Cond: u32(1), Then: u32(1), Else: u32(2)}, 20)))
		}, 20, "select condition has type uint32"},
		{"select arms", func() *ir.Kernel {
			return threadBody(one(decl(x, &ir.Select{Cond: val(ir.BoolValue(true)), Then: u32(1), Else: i32(2)}, 20)))
		}, 20, "select arms have different types"},
		{"if condition", func() *ir.Kernel {
			return threadBody(one(&ir.If{Cond: u32(1), Pos: at(20)}))
		}, 20, "if condition has type uint32"},
		{"while condition", func() *ir.Kernel {
			return threadBody(one(&ir.While{Cond: u32(1), Pos: at(20)}))
		}, 20, "while condition has type uint32"},
		{"for count type", func() *ir.Kernel {
			return threadBody(one(&ir.For{Var: y, Count: u32(3), Pos: at(20)}))
		}, 20, "loop count has type uint32, unlike its index y of type int32"},
		{"forall count type", func() *ir.Kernel {
			return kernel("k", nil, nil, forAll(ir.GridThreads, x, i32(3), 20))
		}, 20, "GridThreads count has type int32; it must be uint32"},
		{"load index type", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(x, load(in, i32(0), 21), 20)}
			})
		}, 21, "index into in has type int32"},
		{"store value type", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{store(out, i, i32(1), 20)}
			})
		}, 20, "store of a int32 value into out, an array of uint32"},
		{"assign type", func() *ir.Kernel {
			return threadBody(one(&ir.Assign{Var: v("i", ir.Uint32), Value: i32(1), Pos: at(20)}))
		}, 20, "variable i is used before it is declared"},
		{"assign value type", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(x, u32(0), 19), &ir.Assign{Var: x, Value: i32(1), Pos: at(20)}}
			})
		}, 20, "assignment of a int32 value to x of type uint32"},
		{"assign loop index", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{&ir.Assign{Var: i, Value: u32(1), Pos: at(20)}}
			})
		}, 20, "assignment to i, the index of a loop"},
		{"invalid node", func() *ir.Kernel {
			return threadBody(one(decl(x, &ir.Invalid{T: ir.Uint32, Msg: "shift by 40 bits", Pos: at(21)}, 20)))
		}, 21, "shift by 40 bits"},
		{"use before declaration", func() *ir.Kernel {
			return threadBody(one(decl(x, bin(ir.Add, v("later", ir.Uint32), u32(1)), 20)))
		}, 20, "variable later is used before it is declared"},
		{"use out of scope", func() *ir.Kernel {
			inner := v("inner", ir.Uint32)
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{
					&ir.If{Cond: val(ir.BoolValue(true)), Pos: at(19), Then: []ir.Stmt{decl(inner, u32(1), 19)}},
					store(out, i, inner, 20),
				}
			})
		}, 20, "variable inner is used outside the scope of its declaration"},
		{"declared twice", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(x, u32(1), 19), decl(x, u32(1), 20)}
			})
		}, 20, "variable x is declared twice"},
		{"duplicate names", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(v("in", ir.Uint32), u32(1), 20)}
			})
		}, 20, "variable in has the name in of array parameter in"},
		{"keyword name", func() *ir.Kernel {
			return threadBody(one(decl(v("float", ir.Uint32), u32(1), 20)))
		}, 20, `name "float" is a C++ keyword`},
		{"not an identifier", func() *ir.Kernel {
			return threadBody(one(decl(v("2x", ir.Uint32), u32(1), 20)))
		}, 20, `name "2x" is not a C identifier`},
		{"reserved suffix", func() *ir.Kernel {
			return threadBody(one(decl(v("t0_", ir.Uint32), u32(1), 20)))
		}, 20, "ends in an underscore"},
		{"kernel named main", func() *ir.Kernel {
			return kernel("main", nil, nil)
		}, 1, `kernel main: name "main" is the name of a program's entry point`},
		{"parameter named like the kernel", func() *ir.Kernel {
			return kernel("k", []*ir.Array{global("k", ir.Uint32, ir.Input, 2)}, nil)
		}, 2, "array parameter k has the name k of kernel k"},
		{"parameter named like a CUDA function", func() *ir.Kernel {
			return kernel("k", []*ir.Array{global("sqrt", ir.Float32, ir.Input, 2)}, nil)
		}, 2, `array parameter sqrt: name "sqrt" is a function of CUDA's math library`},
		{"shared array whose size in bytes overflows", func() *ir.Kernel {
			big := shared("big", ir.Uint32, 1<<62, 20)
			x := v("x", ir.Uint32)
			return kernel("k", nil, []*ir.Array{big}, blocks(1, 9,
				forAll(ir.BlockThreads, x, u32(256), 10, store(big, x, x, 11))))
		}, 20, "shared memory: array big of 4611686018427387904 elements of uint32 is larger than any GPU's"},
		{"shared array used in a later block body", func() *ir.Kernel {
			out, sh := global("out", ir.Uint32, ir.Output, 2), shared("sh", ir.Uint32, 256, 3)
			x, y := v("x", ir.Uint32), v("y", ir.Uint32)
			return kernel("k", []*ir.Array{out}, []*ir.Array{sh},
				blocks(2, 9, forAll(ir.BlockThreads, x, u32(256), 10, store(sh, x, x, 11))),
				forAll(ir.GridBlocks, v("blk2", ir.Uint32), u32(2), 19,
					forAll(ir.BlockThreads, y, u32(256), 19, store(out, y, load(sh, y, 20), 21))))
		}, 20, "shared array sh (allocated at kernel.go:3) is used in the block body of the GridBlocks ForAll at " +
			"kernel.go:19, but it belongs to the one at kernel.go:9"},
		{"shared array used outside a block body", func() *ir.Kernel {
			sh := shared("sh", ir.Uint32, 256, 3)
			x := v("x", ir.Uint32)
			return kernel("k", nil, []*ir.Array{sh}, forAll(ir.GridThreads, x, u32(256), 10, store(sh, x, x, 20)))
		}, 20, "shared array sh (allocated at kernel.go:3) is used outside a block body"},
		{"invalid node without a position", func() *ir.Kernel {
			return threadBody(one(decl(x, &ir.Invalid{T: ir.Uint32, Msg: "use of a zero Exp"}, 20)))
		}, 20, "use of a zero Exp"},
		{"two parameters of one name", func() *ir.Kernel {
			k := kernel("k", []*ir.Array{global("a", ir.Uint32, ir.Input, 2), global("a", ir.Uint32, ir.Output, 3)}, nil)
			return k
		}, 3, "kernel k has two parameters named a"},
		{"store to input", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{store(in, i, u32(1), 20)}
			})
		}, 20, "store to array in, an input of the kernel"},
		{"atomic on input", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{&ir.Atomic{Op: ir.AtomicAdd, Array: in, Index: i, Value: u32(1), Pos: at(20)}}
			})
		}, 20, "atomic Add to array in, an input"},
		{"load of output", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{store(rw, i, load(out, i, 21), 20)}
			})
		}, 21, "load from array out, an output of the kernel"},
		{"block forall at grid level", func() *ir.Kernel {
			return kernel("k", nil, nil, forAll(ir.BlockThreads, x, u32(1), 20))
		}, 20, "a BlockThreads ForAll belongs in Block-level code, but this is Grid-level code"},
		{"grid forall at block level", func() *ir.Kernel {
			return kernel("k", nil, nil, blocks(1, 9, forAll(ir.GridThreads, x, u32(1), 20)))
		}, 20, "a GridThreads ForAll belongs in Grid-level code, but this is Block-level code"},
		{"warp lanes at block level", func() *ir.Kernel {
			return kernel("k", nil, nil, blocks(1, 9, forAll(ir.WarpLanes, x, u32(32), 20)))
		}, 20, "a WarpLanes ForAll belongs in Warp-level code"},
		{"block warps at thread level", func() *ir.Kernel {
			return threadBody(one(forAll(ir.BlockWarps, x, u32(1), 20)))
		}, 20, "a BlockWarps ForAll belongs in Block-level code, but this is Thread-level code"},
		{"block sync at grid level", func() *ir.Kernel {
			return kernel("k", nil, nil, sync(20))
		}, 20, "a Block-level barrier belongs in Block-level code, but this is Grid-level code"},
		{"warp sync at block level", func() *ir.Kernel {
			return kernel("k", nil, nil, blocks(1, 9, &ir.Sync{Level: ir.WarpLevel, Pos: at(20)}))
		}, 20, "a Warp-level barrier belongs in Warp-level code, but this is Block-level code"},
		{"store at block level", func() *ir.Kernel {
			out := global("out", ir.Uint32, ir.Output, 2)
			return kernel("k", []*ir.Array{out}, nil, blocks(1, 9, store(out, u32(0), u32(1), 20)))
		}, 20, "a store belongs in Thread-level code, but this is Block-level code"},
		{"barrier under thread-dependent if", func() *ir.Kernel {
			return kernel("k", nil, nil, blocks(1, 9, &ir.If{
				Cond: bin(ir.Lt, &ir.Special{Kind: ir.ThreadIdx}, u32(5)), Pos: at(20),
				Then: []ir.Stmt{sync(21)}}))
		}, 20, "barrier under a thread-dependent condition: the barrier at kernel.go:21"},
		{"barrier under warp-dependent loop", func() *ir.Kernel {
			return kernel("k", nil, nil, blocks(1, 9, &ir.For{Var: x,
				Count: &ir.Special{Kind: ir.WarpIdx}, Pos: at(20), Body: []ir.Stmt{sync(21)}}))
		}, 20, "barrier under a thread-dependent condition: the barrier at kernel.go:21"},
		{"barrier under a tainted variable", func() *ir.Kernel {
			return kernel("k", nil, nil, blocks(1, 9,
				decl(x, u32(0), 18),
				&ir.Assign{Var: x, Value: &ir.Special{Kind: ir.ThreadIdx}, Pos: at(19)},
				&ir.While{Cond: bin(ir.Lt, x, u32(3)), Pos: at(20), Body: []ir.Stmt{sync(21)}}))
		}, 20, "barrier under a thread-dependent condition: the barrier at kernel.go:21"},
		{"shuffle in a partial forall", func() *ir.Kernel {
			r := v("r", ir.Uint32)
			return kernel("k", nil, nil, blocks(1, 9, forAll(ir.BlockThreads, x, u32(100), 10,
				decl(r, u32(0), 19),
				&ir.Shuffle{Mode: ir.ShuffleIdx, Result: r, Value: x, Lane: u32(0), Pos: at(20)})))
		}, 20, "a shuffle needs all 32 lanes of a warp: it must be in a WarpLanes ForAll of a count that is a multiple of 32"},
		{"ballot under an if", func() *ir.Kernel {
			r := v("r", ir.Uint32)
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(r, u32(0), 19), &ir.If{Cond: bin(ir.Lt, i, u32(3)), Pos: at(19),
					Then: []ir.Stmt{&ir.Ballot{Result: r, Pred: val(ir.BoolValue(true)), Pos: at(20)}}}}
			})
		}, 20, "a ballot needs all 32 lanes of a warp, but here it is under an if"},
		{"match under an if", func() *ir.Kernel {
			r := v("r", ir.Uint32)
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(r, u32(0), 19), &ir.If{Cond: bin(ir.Lt, i, u32(3)), Pos: at(19),
					Then: []ir.Stmt{&ir.MatchAny{Result: r, Value: i, Pos: at(20)}}}}
			})
		}, 20, "a match needs all 32 lanes of a warp, but here it is under an if"},
		{"match of a bool", func() *ir.Kernel {
			r := v("r", ir.Uint32)
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(r, u32(0), 19),
					&ir.MatchAny{Result: r, Value: bin(ir.Lt, i, u32(3)), Pos: at(20)}}
			})
		}, 20, "match of a bool value; MatchAny compares 32 and 64-bit integers and floats"},
		{"match of a uint16", func() *ir.Kernel {
			r := v("r", ir.Uint32)
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(r, u32(0), 19),
					&ir.MatchAny{Result: r, Value: &ir.Convert{To: ir.Uint16, X: i}, Pos: at(20)}}
			})
		}, 20, "match of a uint16 value"},
		{"match into a uint64", func() *ir.Kernel {
			r := v("r", ir.Uint64)
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(r, val(ir.UintValue(ir.Uint64, 0)), 19),
					&ir.MatchAny{Result: r, Value: i, Pos: at(20)}}
			})
		}, 20, "match result variable r has type uint64; it must be uint32"},
		{"shared memory over the limit", func() *ir.Kernel {
			big := shared("big", ir.Float64, 30*1024, 20) // unused arrays overlap
			return kernel("k", nil, []*ir.Array{shared("small", ir.Uint32, 4, 19), big})
		}, 20, "shared memory: array big ends at byte 245760 (245760 bytes in all), over the limit of 232448 bytes"},
		{"threads not a multiple of 32", func() *ir.Kernel {
			k := kernel("k", nil, nil)
			k.Threads = 100
			return k
		}, 1, "kernel k has 100 threads per block; CUDA needs 1 to 1024, and a whole number of warps"},
		{"too many threads", func() *ir.Kernel {
			k := kernel("k", nil, nil)
			k.Threads = 2048
			return k
		}, 1, "kernel k has 2048 threads per block"},
		{"atomic type", func() *ir.Kernel {
			g := global("g", ir.Float32, ir.ReadWrite, 2)
			return kernel("k", []*ir.Array{g}, nil, forAll(ir.GridThreads, x, u32(1), 10,
				&ir.Atomic{Op: ir.AtomicMin, Array: g, Index: x, Value: val(ir.FloatValue(ir.Float32, 1)), Pos: at(20)}))
		}, 20, "atomic Min on g, an array of float32: CUDA has atomic Min only for [int32 uint32 int64 uint64]"},
		{"atomic sub on uint64", func() *ir.Kernel {
			g := global("g", ir.Uint64, ir.ReadWrite, 2)
			return kernel("k", []*ir.Array{g}, nil, forAll(ir.GridThreads, x, u32(1), 10,
				&ir.Atomic{Op: ir.AtomicSub, Array: g, Index: x, Value: val(ir.UintValue(ir.Uint64, 1)), Pos: at(20)}))
		}, 20, "atomic Sub on g, an array of uint64"},
		{"atomic result type", func() *ir.Kernel {
			return threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
				return []ir.Stmt{decl(y, i32(0), 19),
					&ir.Atomic{Op: ir.AtomicAdd, Array: rw, Index: i, Value: u32(1), Result: y, Pos: at(20)}}
			})
		}, 20, "atomic Add result variable y has type int32; it must be uint32"},
		{"blocks uses a local", func() *ir.Kernel {
			k := kernel("k", nil, nil)
			k.Blocks = bin(ir.Add, &ir.Special{Kind: ir.BlockIdx}, u32(1))
			return k
		}, 1, "the block count of kernel k may use only constants, scalar parameters and lengths of array parameters; it uses blockIdx.x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := verifyErrors(c.kernel())
			if len(errs) == 0 {
				t.Fatalf("no error, want %q", c.msg)
			}
			e := errs[0]
			if e.Pos != at(c.line) || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("first error %v, want %q at line %d (all: %v)", e, c.msg, c.line, errs)
			}
		})
	}
}

func TestVerifyReportsEveryErrorInProgramOrder(t *testing.T) {
	k := threadBody(func(i *ir.Var, in, out, rw, sh *ir.Array) []ir.Stmt {
		return []ir.Stmt{store(in, i, u32(1), 20), store(out, i, i32(1), 21), store(in, i, u32(2), 22)}
	})
	var lines []int
	for _, e := range verifyErrors(k) {
		lines = append(lines, e.Pos.Line)
	}
	if len(lines) != 3 || lines[0] != 20 || lines[1] != 21 || lines[2] != 22 {
		t.Errorf("errors at lines %v, want 20, 21, 22", lines)
	}
}

func TestVerifyAcceptsUniformBarriers(t *testing.T) {
	n := v("n", ir.Uint32)
	x := v("x", ir.Uint32)
	k := kernel("k", nil, nil, blocks(1, 9,
		decl(x, bin(ir.Add, n, &ir.Special{Kind: ir.BlockIdx}), 10),
		&ir.If{Cond: bin(ir.Lt, x, u32(3)), Pos: at(11), Then: []ir.Stmt{sync(12)}}))
	k.Params = append(k.Params, ir.Param{Scalar: n})
	if err := Verify(k, DefaultTarget); err != nil {
		t.Errorf("a barrier under a uniform condition: %v", err)
	}
}

func TestVerifyNeverPanics(t *testing.T) {
	broken := []*ir.Kernel{
		nil,
		{Name: "k", Threads: 32, Body: []ir.Stmt{nil, &ir.Decl{Pos: at(2)}, &ir.Store{Pos: at(3)},
			&ir.ForAll{Pos: at(4)}, &ir.Atomic{Pos: at(5)}, &ir.Shuffle{Pos: at(6)}, &ir.Ballot{Pos: at(7)},
			&ir.MatchAny{Pos: at(11)},
			&ir.If{Pos: at(8)}, &ir.For{Pos: at(9)}, &ir.Assign{Pos: at(10)}}},
		{Name: "k", Threads: 32, Params: []ir.Param{{}}, Shared: []*ir.Array{nil}},
	}
	for _, k := range broken {
		if err := Verify(k, DefaultTarget); err == nil {
			t.Errorf("broken kernel %v passes", k)
		}
	}
}

// TestVerifyRejectsNamesCUDAHas checks names that would not compile or would
// hide what CUDA or the printed code defines, as kernel and as parameter
// names.
func TestVerifyRejectsNamesCUDAHas(t *testing.T) {
	names := []string{"main", "printf", "malloc", "free", "sqrt", "sqrtf", "threadIdx", "warpSize", "int4", "dim3",
		"uint32_t", "atomicAdd", "atomicAdd_block", "min", "std", "smem", "__x", "_X", "x_", "2x", "a-b", ""}
	for _, name := range names {
		if err := Verify(kernel(name, nil, nil), DefaultTarget); err == nil {
			t.Errorf("kernel named %q passes", name)
		}
		k := kernel("k", []*ir.Array{global(name, ir.Uint32, ir.Input, 2)}, nil)
		if err := Verify(k, DefaultTarget); err == nil {
			t.Errorf("parameter named %q passes", name)
		}
		if check.CheckName(name) == nil {
			t.Errorf("check.CheckName(%q) = nil", name)
		}
	}
	if err := check.CheckName("histogram2"); err != nil {
		t.Errorf("check.CheckName(histogram2) = %v", err)
	}
}

// TestVerifyRejectsThePreludesNames checks that every function and macro
// the prelude defines (the names clang sees in place of CUDA's) is a name
// no kernel, parameter or variable may have.
func TestVerifyRejectsThePreludesNames(t *testing.T) {
	defined := regexp.MustCompile(`(?m)__obs_fn[^(]*?(\w+)\(|^#define (\w+)|__OBS_(?:ATOMIC|SHUFFLE)\((\w+)|struct (\w+)|__OBS_MATH\d\((\w+), (\w+)\)`)
	macroParams := map[string]bool{"NAME": true, "F": true, "D": true}
	found := 0
	for _, m := range defined.FindAllStringSubmatch(Prelude(), -1) {
		for _, name := range m[1:] {
			if name == "" || macroParams[name] {
				continue
			}
			found++
			if check.CheckName(name) == nil {
				t.Errorf("the prelude defines %s, but a kernel may use that name", name)
			}
		}
	}
	if found < 20 {
		t.Fatalf("found only %d names in the prelude; the pattern is out of date", found)
	}
}
