package dsl_test

import (
	"errors"
	"flag"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// FuzzBuild turns the fuzz input into a DSL program, a small interpreter
// reading one byte per choice: arithmetic, casts, selects, loops, ifs,
// variables, shared arrays, Compute, ForAlls at every level, atomics,
// shuffles, barriers, and now and then a mistake (a bad name, a nil or
// outer builder, a zero Exp, a huge shared array, ...). Build must return
// an error or a kernel, never panic or hang; every error must be an
// *ir.Error at a line of this file (the user's code); a kernel must print
// as CUDA, deterministically, and the CUDA must compile with clang-14 where
// it is installed. Clang runs on every input under go test and on a sample
// of the inputs while fuzzing, so that the fuzzer keeps its pace.
func FuzzBuild(f *testing.F) {
	seeds := [][]byte{
		{},
		{0, 1, 0, 3, 2, 5, 7},
		{1, 0, 2, 1, 0, 4, 5, 3, 1, 1, 0, 2, 4, 2, 8, 7, 7},
		{1, 1, 0, 0, 1, 3, 2, 2, 0, 6, 1, 9, 4, 3, 2, 5, 7, 7, 7},
		{1, 4, 1, 3, 3, 2, 4, 4, 0, 7, 8, 1, 2, 3, 4, 5, 6, 7},
		{1, 2, 1, 0, 5, 2, 0, 1, 3, 4, 2, 4, 5, 1, 10, 3, 7, 6, 1},
		{2, 0, 3, 8, 1, 12, 3, 7, 5, 1, 9, 1, 3, 2, 11, 0},
		{0, 9, 1, 6, 2, 1, 6, 3, 3, 2, 2, 6, 5, 3, 4, 3, 3},
	}
	for _, s := range seeds {
		f.Add(s)
	}
	clang, _ := exec.LookPath("clang-14")
	var prelude string
	if clang != "" {
		prelude = filepath.Join(f.TempDir(), "prelude.h")
		if err := os.WriteFile(prelude, []byte(codegen.Prelude()), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	fuzzing := flag.Lookup("test.fuzz").Value.String() != ""
	f.Fuzz(func(t *testing.T, data []byte) {
		p := &fuzzProgram{data: data, ops: 48}
		k := p.kernel()
		kern, err := k.Build()
		if err != nil {
			checkUserLines(t, err)
			return
		}
		src, _, err := codegen.CUDA(kern)
		if err != nil {
			t.Fatalf("Build accepted a kernel that codegen.CUDA rejects: %v", err)
		}
		if again, _, _ := codegen.CUDA(kern); again != src {
			t.Fatalf("two printings differ:\n%s\n%s", src, again)
		}
		if clang != "" && (!fuzzing || sampled(data, 64)) {
			compileWithClang(t, clang, prelude, src)
		}
	})
}

// sampled picks one input in n, by a hash of the input.
func sampled(data []byte, n uint32) bool {
	h := fnv.New32a()
	h.Write(data)
	return h.Sum32()%n == 0
}

// compileWithClang compiles src as CI compiles the golden files.
func compileWithClang(t *testing.T, clang, prelude, src string) {
	file := filepath.Join(t.TempDir(), "kernel.cu")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc",
		"-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude,
		"-S", "-o", os.DevNull, file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang rejects the printed kernel: %v\n%s\n%s", err, out, src)
	}
}

// checkUserLines fails t unless err is a tree of joined *ir.Error values,
// each at a line of this file.
func checkUserLines(t *testing.T, err error) {
	t.Helper()
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			checkUserLines(t, e)
		}
		return
	}
	var e *ir.Error
	if !errors.As(err, &e) || filepath.Base(e.Pos.File) != "fuzz_test.go" || e.Pos.Line <= 0 {
		t.Fatalf("error %v is not an *ir.Error at a line of the user's code (fuzz_test.go)", err)
	}
}

// fuzzProgram builds a kernel from bytes: each choice reads one byte (0
// once the bytes are used up), and at most ops statements are made, so
// that every input makes a small program.
type fuzzProgram struct {
	data []byte
	ops  int
	k    *dsl.Kernel
	in   dsl.Array[uint32]
	inF  dsl.Array[float32]
	out  dsl.Array[uint32]
	acc  dsl.Array[uint32]
	n    dsl.U32
	// What the statement being made may use: index variables, variables
	// (with their level), shared arrays, the results of Compute (shared
	// arrays too), and the builders of the enclosing bodies (for mistakes).
	// Shared arrays stay usable after their body, so that the programs use
	// them in later bodies too, which Build must reject.
	indices  []dsl.U32
	vars     []fuzzVar
	shared   []dsl.Array[uint32]
	computed []arrays.Pull[uint32]
	builders []dsl.Program
}

type fuzzVar struct {
	v     dsl.Var[uint32]
	level int // nesting depth of its body
}

func (p *fuzzProgram) byte() byte {
	if len(p.data) == 0 {
		return 0
	}
	b := p.data[0]
	p.data = p.data[1:]
	return b
}

// pick returns a choice in [0, n).
func (p *fuzzProgram) pick(n int) int { return int(p.byte()) % n }

// mistake reports whether to make a mistake now: for one byte value in 32.
func (p *fuzzProgram) mistake() bool { return p.byte()%32 == 31 }

// fuzzNames are the kernel names the programs have: good ones, and names
// CUDA rejects or has already.
var fuzzNames = []string{"fuzzed", "k", "scan2", "main", "printf", "sqrt", "int", "__x", "a-b", "threadIdx"}

func (p *fuzzProgram) kernel() *dsl.Kernel {
	name := fuzzNames[0]
	if p.mistake() {
		name = fuzzNames[p.pick(len(fuzzNames))]
	}
	threads := []int{32, 64, 128, 256, 1024, 96}[p.pick(6)]
	if p.mistake() {
		threads = []int{0, 100, 2048, -32}[p.pick(4)]
	}
	k := dsl.NewKernel(name, threads)
	p.k = k
	p.in = dsl.Input[uint32](k, "in")
	p.inF = dsl.Input[float32](k, "inf")
	p.out = dsl.Output[uint32](k, "out")
	p.acc = dsl.InOut[uint32](k, "acc")
	p.n = dsl.Param[uint32](k, "n")
	if p.mistake() {
		dsl.Param[uint32](k, []string{"in", "k", "sqrtf", "x_", "fuzzed"}[p.pick(5)])
	}
	k.Body(func(g *dsl.Grid) { p.grid(g) })
	if p.mistake() {
		k.Body(func(*dsl.Grid) {})
	}
	return k
}

// body calls stmt once per byte, with the byte's high bits, until the
// bytes or the statement budget run out or a byte's low three bits are all
// set (the end of the body); what statements may use is restored after.
func (p *fuzzProgram) body(b dsl.Program, stmt func(op int)) {
	ni, nv, nb := len(p.indices), len(p.vars), len(p.builders)
	p.builders = append(p.builders, b)
	for p.ops > 0 && len(p.data) > 0 {
		op := p.byte()
		if op&7 == 7 {
			break
		}
		p.ops--
		stmt(int(op >> 3))
	}
	p.indices, p.vars, p.builders = p.indices[:ni], p.vars[:nv], p.builders[:nb]
}

// scoped returns a function that forgets the indices added from now on.
func (p *fuzzProgram) scoped() func() {
	n := len(p.indices)
	return func() { p.indices = p.indices[:n] }
}

// count returns a ForAll or loop count: mostly a small constant.
func (p *fuzzProgram) count() dsl.U32 {
	switch p.pick(8) {
	case 0:
		return p.out.Len()
	case 1:
		return p.u32(2)
	}
	return dsl.N([]uint32{1, 2, 5, 32, 64, 100, 256, 1000}[p.pick(8)])
}

// misuse makes a mistake with a builder: an enclosing body's builder, a
// nil one, or a Set of a variable of another level.
func (p *fuzzProgram) misuse() {
	switch p.pick(4) {
	case 0:
		if len(p.builders) > 0 {
			dsl.Let(p.builders[p.pick(len(p.builders))], p.u32(1))
		}
	case 1:
		var t *dsl.Thread
		p.out.Store(t, dsl.N(0), dsl.N(1))
	case 2:
		if len(p.vars) > 0 {
			p.vars[p.pick(len(p.vars))].v.Set(p.u32(1))
		}
	case 3:
		var b *dsl.Block
		b.Sync()
	}
}

func (p *fuzzProgram) grid(g *dsl.Grid) {
	p.body(g, func(op int) {
		switch op % 6 {
		case 0:
			g.ForAll(p.count(), func(t *dsl.Thread, i dsl.U32) { p.thread(t, i) })
		case 1:
			g.ForAllBlocks(p.count(), func(b *dsl.Block, bid dsl.U32) { p.block(b, bid) })
		case 2:
			g.If(p.boolean(2), func(g *dsl.Grid) { p.grid(g) })
		case 3:
			g.For(p.count(), func(g *dsl.Grid, i dsl.U32) {
				defer p.scoped()()
				p.indices = append(p.indices, i)
				p.grid(g)
			})
		case 4:
			p.vars = append(p.vars, fuzzVar{dsl.Let(g, p.u32(2)), len(p.builders)})
		case 5:
			p.misuse()
		}
	})
}

func (p *fuzzProgram) block(b *dsl.Block, bid dsl.U32) {
	defer p.scoped()()
	p.indices = append(p.indices, bid)
	p.body(b, func(op int) {
		switch op % 10 {
		case 0:
			b.ForAll(p.count(), func(t *dsl.Thread, i dsl.U32) { p.thread(t, i) })
		case 1:
			b.ForAllWarps(dsl.N(uint32(1+p.pick(8))), func(w *dsl.Warp, wid dsl.U32) { p.warp(w, wid) })
		case 2:
			b.Sync()
		case 3:
			size := []int{32, 64, 256, 1000}[p.pick(4)]
			if p.mistake() {
				size = []int{0, -1, 1 << 17, 1 << 62}[p.pick(4)]
			}
			p.shared = append(p.shared, dsl.Shared[uint32](b, size))
		case 4:
			n := dsl.N([]uint32{32, 64, 256, 512}[p.pick(4)])
			if p.mistake() {
				n = p.n
			}
			p.computed = append(p.computed,
				arrays.Compute(b, arrays.Generate(n, func(i dsl.U32) dsl.U32 { return p.u32With(2, i) })))
		case 5:
			b.If(p.boolean(2), func(b *dsl.Block) { p.block(b, bid) })
		case 6:
			b.For(p.count(), func(b *dsl.Block, i dsl.U32) {
				defer p.scoped()()
				p.indices = append(p.indices, i)
				p.block(b, bid)
			})
		case 7:
			p.vars = append(p.vars, fuzzVar{dsl.Let(b, p.u32(2)), len(p.builders)})
		case 8:
			if v := p.variable(); v != nil {
				v.v.Set(v.v.Add(dsl.N(1)))
			}
		case 9:
			p.misuse()
		}
	})
}

func (p *fuzzProgram) warp(w *dsl.Warp, wid dsl.U32) {
	defer p.scoped()()
	p.indices = append(p.indices, wid)
	p.body(w, func(op int) {
		switch op % 4 {
		case 0:
			n := dsl.N(32)
			if p.mistake() {
				n = dsl.N(uint32(p.pick(64)))
			}
			w.ForAll(n, func(t *dsl.Thread, lane dsl.U32) { p.thread(t, lane) })
		case 1:
			w.Sync()
		case 2:
			w.If(p.boolean(1), func(w *dsl.Warp) { p.warp(w, wid) })
		case 3:
			p.misuse()
		}
	})
}

func (p *fuzzProgram) thread(t *dsl.Thread, i dsl.U32) {
	defer p.scoped()()
	p.indices = append(p.indices, i)
	p.body(t, func(op int) {
		switch op % 14 {
		case 0:
			p.out.Store(t, p.u32(2), p.u32(3))
		case 1:
			p.out.StoreSame(t, p.u32(1), dsl.N(1))
		case 2:
			if len(p.shared) > 0 {
				p.shared[p.pick(len(p.shared))].Store(t, p.u32(1), p.u32(2))
			}
		case 3:
			p.acc.Atomic(t, dsl.AtomicOp(1+p.pick(10)), p.u32(1), p.u32(1))
		case 4:
			p.out.Store(t, i, p.acc.Fetch(t, dsl.AtomicAdd, p.u32(1), dsl.N(1)))
		case 5:
			p.vars = append(p.vars, fuzzVar{dsl.Let(t, p.u32(2)), len(p.builders)})
		case 6:
			if v := p.variable(); v != nil {
				v.v.Set(p.u32(2))
			}
		case 7:
			t.If(p.boolean(2), func(t *dsl.Thread) { p.thread(t, i) })
		case 8:
			t.IfElse(p.boolean(2), func(t *dsl.Thread) { p.thread(t, i) }, func(t *dsl.Thread) { p.thread(t, i) })
		case 9:
			t.For(p.count(), func(t *dsl.Thread, j dsl.U32) { p.thread(t, j) })
		case 10:
			c := dsl.Let(t, dsl.N(0))
			t.While(c.Lt(dsl.N(uint32(p.pick(5)))), func(t *dsl.Thread) {
				c.Set(c.Add(dsl.N(1)))
				p.thread(t, c.Exp)
			})
		case 11:
			p.out.Store(t, i, dsl.Shuffle(t, dsl.ShuffleMode(1+p.pick(4)), p.u32(1), dsl.N(uint32(p.pick(40)))))
		case 12:
			switch p.pick(3) {
			case 0:
				p.out.Store(t, i, dsl.Ballot(t, p.boolean(1)))
			case 1:
				p.out.Store(t, i, dsl.Agree(t, p.boolean(1)))
			default:
				p.out.Store(t, i, dsl.MatchAny(t, p.u32(1)))
			}
		case 13:
			p.misuse()
		}
	})
}

// variable returns a variable declared at the current nesting depth, or
// nil.
func (p *fuzzProgram) variable() *fuzzVar {
	var here []*fuzzVar
	for i := range p.vars {
		if p.vars[i].level == len(p.builders) {
			here = append(here, &p.vars[i])
		}
	}
	if len(here) == 0 {
		return nil
	}
	return here[p.pick(len(here))]
}

// u32 returns a uint32 expression at most depth operators deep.
func (p *fuzzProgram) u32(depth int) dsl.U32 { return p.u32With(depth, dsl.N(0)) }

// binaryOps are the uint32 operators the expressions use.
var binaryOps = []func(x, y dsl.U32) dsl.U32{
	dsl.U32.Add, dsl.U32.Sub, dsl.U32.Mul, dsl.U32.Div, dsl.U32.Rem, dsl.U32.And, dsl.U32.Or, dsl.U32.Xor,
	dsl.U32.Shl, dsl.U32.Shr, dsl.U32.Min, dsl.U32.Max,
}

// u32With is u32 in which the extra index i may appear too.
func (p *fuzzProgram) u32With(depth int, i dsl.U32) dsl.U32 {
	op := p.pick(12)
	if depth <= 0 {
		op %= 3
	}
	switch op {
	case 0:
		return dsl.N(uint32(p.byte()))
	case 1:
		if len(p.indices) > 0 {
			return p.indices[p.pick(len(p.indices))]
		}
		return i
	case 2:
		return []dsl.U32{i, p.n, p.in.Len(), p.out.Len()}[p.pick(4)]
	case 3:
		return p.in.At(p.u32With(depth-1, i))
	case 4, 5:
		return binaryOps[p.pick(len(binaryOps))](p.u32With(depth-1, i), p.u32With(depth-1, i))
	case 6:
		return dsl.Select(p.boolean(depth-1), p.u32With(depth-1, i), p.u32With(depth-1, i))
	case 7:
		return dsl.Cast[uint32](p.f32(depth - 1))
	case 8:
		if len(p.shared) > 0 {
			return p.shared[p.pick(len(p.shared))].At(p.u32With(depth-1, i))
		}
		if len(p.computed) > 0 {
			return p.computed[p.pick(len(p.computed))].At(p.u32With(depth-1, i))
		}
	case 9:
		if len(p.vars) > 0 {
			return p.vars[p.pick(len(p.vars))].v.Exp
		}
	case 10:
		return p.u32With(depth-1, i).Neg().Not()
	case 11:
		if p.mistake() {
			var zero dsl.U32
			return zero
		}
	}
	return i
}

// f32 returns a float32 expression.
func (p *fuzzProgram) f32(depth int) dsl.F32 {
	if depth <= 0 {
		return dsl.Lit(float32(p.byte()) / 8)
	}
	switch p.pick(5) {
	case 0:
		return p.inF.At(p.u32(depth - 1))
	case 1:
		return dsl.Cast[float32](p.u32(depth - 1))
	case 2:
		return p.f32(depth - 1).Mul(p.f32(depth - 1))
	case 3:
		return p.f32(depth - 1).Div(p.f32(depth - 1))
	}
	return p.f32(depth - 1).Max(p.f32(depth - 1))
}

// boolean returns a Bool expression.
func (p *fuzzProgram) boolean(depth int) dsl.Bool {
	if depth <= 0 {
		return dsl.Lit(p.byte()%2 == 0)
	}
	switch p.pick(5) {
	case 0:
		return p.u32(depth - 1).Lt(p.u32(depth - 1))
	case 3:
		return p.u32(depth - 1).Ne(dsl.N(0))
	case 1:
		return p.u32(depth - 1).Eq(p.u32(depth - 1))
	case 2:
		return p.boolean(depth - 1).And(p.boolean(depth - 1))
	}
	return p.f32(depth - 1).Ge(p.f32(depth - 1)).Not()
}
