package runtime_test

import (
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// testRand returns a random source whose seed is logged; OBSIDIAN_SEED
// replays a run.
func testRand(t testing.TB) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("OBSIDIAN_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("OBSIDIAN_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (replay with OBSIDIAN_SEED=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

var (
	sharedGPUOnce sync.Once
	sharedGPU     *runtime.GPU
	sharedGPUErr  error
)

// gpuForTest returns the GPU the tests share (disk cache off), or skips the
// test with the reason there is none.
func gpuForTest(t testing.TB) *runtime.GPU {
	t.Helper()
	sharedGPUOnce.Do(func() {
		sharedGPU, sharedGPUErr = runtime.Open(0)
		if sharedGPUErr == nil {
			sharedGPU.SetCacheDir("")
		}
	})
	if sharedGPUErr != nil {
		t.Skip(sharedGPUErr.Error())
	}
	return sharedGPU
}

// must returns v, failing the test given to its result on err:
// must(f())(t).
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func u32(v uint64) *ir.Const { return &ir.Const{Value: ir.UintValue(ir.Uint32, v)} }

func bin(op ir.BinOp, x, y ir.Expr) *ir.Binary { return &ir.Binary{Op: op, X: x, Y: y} }

// blocksFor is ceil(len(a) / per).
func blocksFor(a *ir.Array, per uint64) ir.Expr {
	return bin(ir.Div, bin(ir.Add, &ir.Len{Array: a}, u32(per-1)), u32(per))
}

func global(name string, t ir.Type, access ir.Access) *ir.Array {
	return &ir.Array{Name: name, Elem: t, Space: ir.Global, Access: access}
}

// vectorAdd is out[i] = a[i] + b[i] over float32, one thread per element.
func vectorAdd() *ir.Kernel {
	a, b := global("a", ir.Float32, ir.Input), global("b", ir.Float32, ir.Input)
	out := global("out", ir.Float32, ir.Output)
	i := &ir.Var{Name: "i", T: ir.Uint32}
	sum := bin(ir.Add, &ir.Load{Array: a, Index: i}, &ir.Load{Array: b, Index: i})
	return &ir.Kernel{
		Name:    "vadd",
		Threads: 256,
		Params:  []ir.Param{{Array: a}, {Array: b}, {Array: out}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out},
			Body: []ir.Stmt{&ir.Store{Array: out, Index: i, Value: sum}}}},
		Blocks: blocksFor(out, 256),
	}
}

// mixScalars is out[i] = flag ? x + i : y + i, exercising 8-, 1- and
// 4-byte scalar parameters.
func mixScalars() *ir.Kernel {
	out := global("out", ir.Int64, ir.Output)
	x := &ir.Var{Name: "x", T: ir.Int64}
	flag := &ir.Var{Name: "flag", T: ir.Bool}
	y := &ir.Var{Name: "y", T: ir.Int32}
	i := &ir.Var{Name: "i", T: ir.Uint32}
	wide := &ir.Convert{To: ir.Int64, X: i}
	value := &ir.Select{Cond: flag, Then: bin(ir.Add, x, wide), Else: bin(ir.Add, &ir.Convert{To: ir.Int64, X: y}, wide)}
	return &ir.Kernel{
		Name:    "mix",
		Threads: 128,
		Params:  []ir.Param{{Array: out}, {Scalar: x}, {Scalar: flag}, {Scalar: y}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out},
			Body: []ir.Stmt{&ir.Store{Array: out, Index: i, Value: value}}}},
		Blocks: blocksFor(out, 128),
	}
}

// reverseBlocks reverses every chunk of 256 elements through shared memory:
// out[256b + t] = in[256b + 255 - t], or 0 past the end of in.
func reverseBlocks() *ir.Kernel {
	const n = 256
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	sh := &ir.Array{Name: "sh", Elem: ir.Uint32, Space: ir.Shared, Access: ir.ReadWrite, Size: n}
	blk := &ir.Var{Name: "blk", T: ir.Uint32}
	t, u := &ir.Var{Name: "t", T: ir.Uint32}, &ir.Var{Name: "u", T: ir.Uint32}
	i, j := &ir.Var{Name: "i", T: ir.Uint32}, &ir.Var{Name: "j", T: ir.Uint32}
	load := []ir.Stmt{
		&ir.Decl{Var: i, Init: bin(ir.Add, bin(ir.Mul, blk, u32(n)), t)},
		&ir.If{Cond: bin(ir.Lt, i, &ir.Len{Array: in}),
			Then: []ir.Stmt{&ir.Store{Array: sh, Index: t, Value: &ir.Load{Array: in, Index: i}}},
			Else: []ir.Stmt{&ir.Store{Array: sh, Index: t, Value: u32(0)}}},
	}
	store := []ir.Stmt{
		&ir.Decl{Var: j, Init: bin(ir.Add, bin(ir.Mul, blk, u32(n)), u)},
		&ir.If{Cond: bin(ir.Lt, j, &ir.Len{Array: out}),
			Then: []ir.Stmt{&ir.Store{Array: out, Index: j, Value: &ir.Load{Array: sh, Index: bin(ir.Sub, u32(n-1), u)}}}},
	}
	return &ir.Kernel{
		Name:    "reverse_blocks",
		Threads: n,
		Params:  []ir.Param{{Array: in}, {Array: out}},
		Shared:  []*ir.Array{sh},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridBlocks, Var: blk, Count: blocksFor(in, n), Body: []ir.Stmt{
			&ir.ForAll{Kind: ir.BlockThreads, Var: t, Count: u32(n), Body: load},
			&ir.Sync{Level: ir.BlockLevel},
			&ir.ForAll{Kind: ir.BlockThreads, Var: u, Count: u32(n), Body: store},
		}}},
		Blocks: blocksFor(in, n),
	}
}

// reversedBlocks is what reverseBlocks computes.
func reversedBlocks(in []uint32) []uint32 {
	out := make([]uint32, len(in))
	for j := range out {
		if src := j/256*256 + 255 - j%256; src < len(in) {
			out[j] = in[src]
		}
	}
	return out
}

func randomFloats(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64() * 1000)
	}
	return s
}

func randomUints(r *rand.Rand, n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = r.Uint32()
	}
	return s
}
