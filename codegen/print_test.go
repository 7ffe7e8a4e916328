package codegen

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

func TestPrintSignatureAndHeader(t *testing.T) {
	k := gridCopy("copy", ir.Float32, func(x ir.Expr) ir.Expr { return x })
	k.Params = append(k.Params, ir.Param{Scalar: v("scale", ir.Float64)})
	src, _ := mustCUDA(t, k)
	contains(t, src,
		"// copy: 256 threads per block, 0 bytes of shared memory\n",
		`extern "C" __global__ void __launch_bounds__(256) copy(const float* in, unsigned int in_len, `+
			`float* out, unsigned int out_len, double scale) {`)
	if strings.Contains(src, "smem") {
		t.Errorf("a kernel without shared arrays declares shared memory:\n%s", src)
	}
}

// TestPrintMinBlocks checks that a kernel's MinBlocks reaches the
// compiler as __launch_bounds__'s second argument, and that the
// verifier rejects more blocks than a multiprocessor holds.
func TestPrintMinBlocks(t *testing.T) {
	k := gridCopy("copy", ir.Uint32, func(x ir.Expr) ir.Expr { return x })
	k.MinBlocks = 3
	src, _ := mustCUDA(t, k)
	contains(t, src, `extern "C" __global__ void __launch_bounds__(256, 3) copy(`)
	k.MinBlocks = 9
	if _, _, err := CUDA(k); err == nil || !strings.Contains(err.Error(), "asks for 9 blocks of 256 threads") {
		t.Errorf("MinBlocks 9 of 256 threads: got %v, want an error", err)
	}
}

func TestPrintGridThreadsIsAGridStrideLoop(t *testing.T) {
	src, _ := mustCUDA(t, gridCopy("copy", ir.Uint32, func(x ir.Expr) ir.Expr { return x }))
	contains(t, src,
		"for (unsigned long long i_ = (unsigned long long)blockIdx.x * 256 + threadIdx.x; i_ < in_len; "+
			"i_ += (unsigned long long)gridDim.x * 256) {\n    unsigned int i = (unsigned int)i_;\n",
		"if (i < out_len) out[i] = in[i];")
}

// blockForAll prints a kernel with one BlockThreads ForAll of the given count.
// The count may use the scalar parameter n.
func blockForAll(t *testing.T, count func(n *ir.Var) ir.Expr) string {
	out := global("out", ir.Uint32, ir.Output, 2)
	n := v("n", ir.Uint32)
	i := v("i", ir.Uint32)
	k := kernel("spread", []*ir.Array{out}, nil,
		blocks(1, 9, forAll(ir.BlockThreads, i, count(n), 10, store(out, i, i, 11))))
	k.Params = append(k.Params, ir.Param{Scalar: n})
	src, _ := mustCUDA(t, k)
	return src
}

func constCount(c uint64) func(*ir.Var) ir.Expr { return func(*ir.Var) ir.Expr { return u32(c) } }

func TestPrintBlockThreadsAtBlockSizeHasNoGuard(t *testing.T) {
	src := blockForAll(t, constCount(256))
	contains(t, src, "{\n      unsigned int i = threadIdx.x;\n")
	if strings.Contains(src, "threadIdx.x <") || strings.Contains(src, "i += ") {
		t.Errorf("a ForAll of the block size is guarded or looped:\n%s", src)
	}
}

func TestPrintBlockThreadsBelowBlockSizeIsGuarded(t *testing.T) {
	contains(t, blockForAll(t, constCount(100)), "if (threadIdx.x < 100u) {\n      unsigned int i = threadIdx.x;\n")
}

func TestPrintBlockThreadsAboveBlockSizeIsVirtualised(t *testing.T) {
	contains(t, blockForAll(t, constCount(1000)), "for (unsigned int i = threadIdx.x; i < 1000u; i += 256u) {")
	contains(t, blockForAll(t, func(n *ir.Var) ir.Expr { return n }),
		"for (unsigned long long i_ = threadIdx.x; i_ < n; i_ += 256u) {\n      unsigned int i = (unsigned int)i_;")
	// A constant count within a stride of 2^32 would wrap a 32-bit counter.
	contains(t, blockForAll(t, constCount(1<<32-100)), "for (unsigned long long i_ = threadIdx.x; i_ < 4294967196u; i_ += 256u) {")
}

func TestPrintNonTrivialLoopCountIsEvaluatedOnce(t *testing.T) {
	src := blockForAll(t, func(n *ir.Var) ir.Expr { return bin(ir.Add, n, u32(7)) })
	contains(t, src, "const unsigned int t0_ = n + 7u;\n", "i_ < t0_; i_ += 256u")
}

func TestPrintWarpLevelForAlls(t *testing.T) {
	src, _ := mustCUDA(t, warpKernel())
	contains(t, src, "unsigned int w = threadIdx.x >> 5;", "unsigned int l = threadIdx.x & 31u;",
		"for (unsigned int d = 0u; d < 5u; d++) {",
		"y = __shfl_xor_sync(0xffffffffu, x, 1u << d);")
	k := forAllKernel()
	src, _ = mustCUDA(t, k)
	contains(t, src, "if ((threadIdx.x >> 5) < 3u) {", "for (unsigned int w10 = threadIdx.x >> 5; w10 < 20u; w10 += 8u) {",
		"if ((threadIdx.x & 31u) < 16u) {", "__syncwarp();",
		"for (unsigned long long blk_ = blockIdx.x; blk_ < 8u; blk_ += gridDim.x) {\n    unsigned int blk = (unsigned int)blk_;")
}

func TestPrintUnrolledForAlls(t *testing.T) {
	src, _ := mustCUDA(t, unrolledKernel())
	lines := strings.Split(src, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	contains(t, strings.Join(lines, "\n"),
		// A count of the block is no loop: nothing to unroll.
		"unsigned int blk = (unsigned int)blk_;\n{\nunsigned int i0 = threadIdx.x;",
		// A constant multiple of the block counts its rounds.
		"#pragma unroll 4\nfor (unsigned int i1_ = 0u; i1_ < 4u; i1_++) {\nunsigned int i1 = threadIdx.x + i1_ * 256u;",
		"#pragma unroll 2\nfor (unsigned int i2 = threadIdx.x; i2 < 1000u; i2 += 256u) {",
		"#pragma unroll 3\nfor (unsigned long long i3_ = threadIdx.x; i3_ < n; i3_ += 256u) {",
		"}\nfor (unsigned int i4 = threadIdx.x; i4 < 2048u; i4 += 256u) {",
		"#pragma unroll 2\nfor (unsigned long long g_ = (unsigned long long)blockIdx.x * 256 + threadIdx.x; g_ < n;")
	if got := strings.Count(src, "#pragma unroll"); got != 4 {
		t.Errorf("%d pragmas, want 4 (the ForAlls asking for one that loop):\n%s", got, src)
	}
}

func TestPrintBarriersExactlyWhereSyncsAre(t *testing.T) {
	k, _ := pingPong()
	src, _ := mustCUDA(t, k)
	// Three Syncs, and one ending each iteration of the GridBlocks loop
	// (the kernel reuses shared memory across virtual blocks).
	if got := strings.Count(src, "__syncthreads();"); got != 4 {
		t.Fatalf("%d barriers, want 4:\n%s", got, src)
	}
	steps := strings.Split(src, "__syncthreads();")
	for i, want := range []string{"a[i0] = in[i0] + 1u;", "b[i1] = a[i1] + 1u;", "c[i2] = b[i2] + 1u;", "out[i3] = c[i3];"} {
		if !strings.Contains(steps[i], want) {
			t.Errorf("step %d between barriers lacks %q:\n%s", i, want, steps[i])
		}
	}
	noShared := gridCopy("plain", ir.Uint32, func(x ir.Expr) ir.Expr { return x })
	if src, _ := mustCUDA(t, noShared); strings.Contains(src, "__sync") {
		t.Errorf("a kernel without Sync has a barrier:\n%s", src)
	}
}

func TestPrintAtomics(t *testing.T) {
	src, _ := mustCUDA(t, atomicKernel(ir.Uint32))
	contains(t, src,
		"const unsigned int t0_ = (i + 1u) & 63u;\n",
		"if (t0_ < g_len) r = atomicAdd(&g[t0_], 3u);",
		"if (i < g_len) atomicAdd(&g[i], r);",
		"r = atomicAdd(&s[t0_], 3u);",
		"r = atomicInc(&s[t0_], 3u);",
		"r = atomicDec(&s[t0_], 3u);",
		"if (i < g_len) atomicCAS(&g[i], 3u, r);")
	if n := strings.Count(src, "(i + 1u) & 63u"); n != 1 {
		t.Errorf("the index of the atomics is computed %d times, want once:\n%s", n, src)
	}
	src, _ = mustCUDA(t, atomicKernel(ir.Int64))
	contains(t, src, "const unsigned int t0_ = (i + 1u) & 63u;\n",
		"r = (long long)atomicAdd((unsigned long long*)&s[t0_], (unsigned long long)3ll);",
		"atomicExch((unsigned long long*)&s[i], (unsigned long long)r);",
		"r = atomicMin(&s[t0_], 3ll);")
	src, _ = mustCUDA(t, atomicKernel(ir.Float32))
	contains(t, src, "const unsigned int t0_ = (i + 1u) & 63u;\n", "r = atomicExch(&s[t0_], 1.5f);", "r = atomicAdd(&s[t0_], 1.5f);")
}

func TestPrintShufflesAndBallot(t *testing.T) {
	src, _ := mustCUDA(t, shuffleKernel(ir.Float64))
	contains(t, src,
		"x = __shfl_sync(0xffffffffu, x, 1u);",
		"x = __shfl_up_sync(0xffffffffu, x, 2u);",
		"x = __shfl_down_sync(0xffffffffu, x, 3u);",
		"x = __shfl_xor_sync(0xffffffffu, x, 4u);",
		"m = __ballot_sync(0xffffffffu, t0_);",
		"m = __obs_agree((unsigned int)t0_);",
		"m = __obs_agree((unsigned int)t1_);", // a float's x != 0 is not its bits'
		"m = __match_any_sync(0xffffffffu, __double_as_longlong(x));")
	src, _ = mustCUDA(t, shuffleKernel(ir.Float32))
	contains(t, src, "m = __match_any_sync(0xffffffffu, __float_as_uint(x));")
	src, _ = mustCUDA(t, shuffleKernel(ir.Int64))
	contains(t, src, "m = __match_any_sync(0xffffffffu, x);", "const bool t1_ = x != 0ll;")
	// A 32-bit x != 0 votes with x itself, and the helper is written once.
	src, _ = mustCUDA(t, shuffleKernel(ir.Int32))
	contains(t, src, "m = __ballot_sync(0xffffffffu, x);", "m = __obs_agree(x);", "m = __obs_agree((unsigned int)t0_);")
	if n := strings.Count(src, "unsigned int __obs_agree("); n != 1 {
		t.Errorf("the agree helper is defined %d times, want once:\n%s", n, src)
	}
}

func TestPrintSharedArraysAtTheirOffsets(t *testing.T) {
	k, _ := pingPong()
	src, c := mustCUDA(t, k)
	contains(t, src, "extern __shared__ __align__(16) unsigned char smem[];\n",
		"unsigned int* a = (unsigned int*)(smem + 0);\n",
		"unsigned int* b = (unsigned int*)(smem + 1024);\n",
		"unsigned int* c = (unsigned int*)(smem + 0);\n",
		"// pingpong: 256 threads per block, 2048 bytes of shared memory")
	if c.SharedBytes != 2048 {
		t.Errorf("SharedBytes = %d, want 2048", c.SharedBytes)
	}
}

func TestPrintExpressions(t *testing.T) {
	x, y, z := v("x", ir.Uint32), v("y", ir.Uint32), v("z", ir.Uint32)
	s1, s2, s3 := v("s1", ir.Int32), v("s2", ir.Int32), v("s3", ir.Int64)
	u := v("u", ir.Uint32)
	b := v("b", ir.Bool)
	f := v("f", ir.Float32)
	for _, c := range []struct {
		e    ir.Expr
		want string
	}{
		{bin(ir.Add, x, bin(ir.Mul, y, z)), "x + y * z"},
		{bin(ir.Mul, bin(ir.Add, x, y), z), "(x + y) * z"},
		{bin(ir.Sub, x, bin(ir.Sub, y, z)), "x - (y - z)"},
		{bin(ir.Sub, bin(ir.Sub, x, y), z), "x - y - z"},
		{bin(ir.And, bin(ir.Add, x, y), z), "(x + y) & z"},
		{bin(ir.Shl, x, bin(ir.Add, y, z)), "x << (y + z)"},
		{bin(ir.Or, bin(ir.Shl, x, y), z), "(x << y) | z"},
		{bin(ir.Lt, bin(ir.Add, x, y), z), "x + y < z"},
		{bin(ir.Eq, bin(ir.Lt, x, y), b), "(x < y) == b"},
		{bin(ir.Or, bin(ir.And, b, b), b), "(b && b) || b"},
		{bin(ir.Xor, b, b), "b != b"},
		{bin(ir.Sub, x, i32(-3)), "x - (-3)"},
		{&ir.Unary{Op: ir.Neg, X: i32(-3)}, "(int)(-(unsigned int)(-3))"},
		// Signed + - * << wrap in the IR: computed unsigned, converted back.
		{bin(ir.Add, s1, bin(ir.Mul, s2, s1)), "(int)((unsigned int)s1 + ((unsigned int)s2 * (unsigned int)s1))"},
		{bin(ir.Shl, s1, s2), "(int)((unsigned int)s1 << s2)"},
		{bin(ir.Sub, s3, s3), "(long long)((unsigned long long)s3 - (unsigned long long)s3)"},
		{bin(ir.Div, s1, s2), "s1 / s2"},
		{&ir.Unary{Op: ir.Not, X: b}, "!b"},
		{&ir.Unary{Op: ir.Not, X: u}, "~u"},
		{&ir.Unary{Op: ir.Neg, X: bin(ir.Add, x, y)}, "-(x + y)"},
		{&ir.Convert{To: ir.Float32, X: x}, "(float)x"},
		{&ir.Convert{To: ir.Int64, X: bin(ir.Add, x, y)}, "(long long)(x + y)"},
		{&ir.Select{Cond: b, Then: x, Else: y}, "(b ? x : y)"},
		{bin(ir.Min, x, y), "min(x, y)"},
		{bin(ir.Max, u, u32(3)), "max(u, 3u)"},
		{bin(ir.Min, f, f), "fminf(f, f)"},
		{bin(ir.Rem, f, f), "fmodf(f, f)"},
		{&ir.Special{Kind: ir.LaneIdx}, "(threadIdx.x & 31u)"},
		{&ir.Special{Kind: ir.WarpIdx}, "(threadIdx.x >> 5)"},
		{&ir.Special{Kind: ir.BlockDim}, "blockDim.x"},
	} {
		if got := expr(c.e); got != c.want {
			t.Errorf("printed %q, want %q", got, c.want)
		}
	}
}

func TestPrintConstants(t *testing.T) {
	for _, c := range []struct {
		v    ir.Value
		want string
	}{
		{ir.UintValue(ir.Uint32, 5), "5u"},
		{ir.IntValue(ir.Int32, -3), "-3"},
		{ir.UintValue(ir.Uint64, 5), "5ull"},
		{ir.IntValue(ir.Int64, -3), "-3ll"},
		{ir.IntValue(ir.Int32, -1<<31), "(-2147483647 - 1)"},
		{ir.IntValue(ir.Int64, -1<<63), "(-9223372036854775807ll - 1)"},
		{ir.FloatValue(ir.Float32, 1), "1.0f"},
		{ir.FloatValue(ir.Float32, 0.1), "0.1f"},
		{ir.FloatValue(ir.Float64, 0.1), "0.1"},
		{ir.FloatValue(ir.Float64, 1e300), "1e+300"},
		{ir.Value{T: ir.Float32, Bits: 0x7fc00000}, "__int_as_float(0x7fc00000)"},
		{ir.Value{T: ir.Float32, Bits: 0xff800000}, "__int_as_float(0xff800000)"},
		{ir.Value{T: ir.Float64, Bits: 0x7ff0000000000000}, "__longlong_as_double(0x7ff0000000000000ll)"},
		{ir.BoolValue(true), "true"},
	} {
		if got := cConst(c.v); got != c.want {
			t.Errorf("constant %v printed %q, want %q", c.v, got, c.want)
		}
	}
}

func TestPrintHoistsRepeatedSubexpressions(t *testing.T) {
	src, _ := mustCUDA(t, loopKernel())
	// in[i + 1] twice, outside a select: hoisted once. in[i - 1] only in a
	// select arm: left where it is guarded.
	contains(t, src, "const int t0_ = in[i + 1u];\n", "int acc = (int)(((unsigned int)t0_ * (unsigned int)t0_) + (unsigned int)(i > 0u ? in[i - 1u] : 0));",
		"for (int j = 0; j < t1_; j++) {", "} else if (acc == 0) {", "while (acc > 100) {")
}

func TestPrintHoistsSubexpressionsOnlyOnce(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i := v("i", ir.Uint32)
	sum := func() ir.Expr { return bin(ir.Add, load(in, i, 5), u32(1)) }
	inner := func() ir.Expr { return bin(ir.Mul, sum(), sum()) }
	k := kernel("cse", []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: in}, 4,
		store(out, i, bin(ir.Add, inner(), bin(ir.Xor, inner(), sum())), 5)))
	src, _ := mustCUDA(t, k)
	contains(t, src, "const unsigned int t0_ = in[i] + 1u;\n    const unsigned int t1_ = t0_ * t0_;\n",
		"out[i] = t1_ + (t1_ ^ t0_);")
}

func TestPrintIsDeterministic(t *testing.T) {
	for _, k := range constructKernels() {
		first, c := mustCUDA(t, k)
		if again := Print(c); again != first {
			t.Errorf("kernel %s printed twice differs", k.Name)
		}
	}
	first := constructKernels()
	second := constructKernels()
	for i := range first {
		a, _ := mustCUDA(t, first[i])
		b, _ := mustCUDA(t, second[i])
		if a != b {
			t.Errorf("kernel %s built twice prints differently", first[i].Name)
		}
	}
}

func TestCompileLeavesItsInputAlone(t *testing.T) {
	k, arrays := pingPong()
	before := Print(k)
	_, c := mustCUDA(t, k)
	if Print(k) != before || k.SharedBytes != 0 || arrays[1].Offset != 0 {
		t.Errorf("Compile changed its input")
	}
	if c.Shared[1] == arrays[1] || c.Shared[1].Offset != 1024 {
		t.Errorf("the compiled kernel shares arrays with its input or lacks offsets")
	}
}

// A For count read from a variable the body assigns is copied first: the
// IR evaluates the count once.
func TestPrintForCountReadOnce(t *testing.T) {
	n, k := v("n", ir.Uint32), v("k", ir.Uint32)
	out := global("out", ir.Uint32, ir.Output, 1)
	i := v("i", ir.Uint32)
	body := []ir.Stmt{
		&ir.Decl{Var: n, Init: u32(3)},
		&ir.For{Var: k, Count: n, Body: []ir.Stmt{&ir.Assign{Var: n, Value: bin(ir.Add, n, u32(1))}}},
		&ir.Store{Array: out, Index: i, Value: n},
	}
	kern := &ir.Kernel{Name: "count", Threads: 32, Params: []ir.Param{{Array: out}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out}, Body: body}}}
	src, _ := mustCUDA(t, kern)
	contains(t, src, "const unsigned int t0_ = n;\n", "k < t0_; k++")
}

// TestPrintDeclaresUnassignedLocalsConst checks that a local is const
// unless something assigns it later: an Assign, an atomic's result, a
// shuffle or a ballot.
func TestPrintDeclaresUnassignedLocalsConst(t *testing.T) {
	src, _ := mustCUDA(t, loopKernel())
	contains(t, src, "const unsigned long long k64 = (unsigned long long)acc;\n", "  int acc = ")
	src, _ = mustCUDA(t, atomicKernel(ir.Uint32))
	contains(t, src, "  unsigned int r = 3u;\n")
	src, _ = mustCUDA(t, shuffleKernel(ir.Int32))
	contains(t, src, "  int x = in[i];\n", "  unsigned int m = 0u;\n")
}

// TestPrintTempsAreNotNamedLikeALoopCounter checks the name of the temp
// holding a grid loop's count when the loop's index is named t0, which
// makes its counter t0_.
func TestPrintTempsAreNotNamedLikeALoopCounter(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output, 2)
	i, n := v("t0", ir.Uint32), v("n", ir.Uint32)
	k := kernel("counter", []*ir.Array{out}, nil,
		forAll(ir.GridThreads, i, bin(ir.Add, n, u32(1)), 10, store(out, i, u32(1), 11)))
	k.Params = append(k.Params, ir.Param{Scalar: n})
	src, _ := mustCUDA(t, k)
	contains(t, src, "const unsigned int t1_ = n + 1u;\n", "t0_ < t1_;")
}
