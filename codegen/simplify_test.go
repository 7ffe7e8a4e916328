package codegen

import (
	"math"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

func TestSimplifyExpressions(t *testing.T) {
	x, s := v("x", ir.Uint32), v("s", ir.Int32)
	f, b := v("f", ir.Float32), v("b", ir.Bool)
	arr := global("a", ir.Uint32, ir.Input, 1)
	sh := shared("sh", ir.Uint32, 96, 1)
	ld := load(arr, x, 1)
	f32 := func(v float64) *ir.Const { return val(ir.FloatValue(ir.Float32, v)) }
	for _, c := range []struct {
		name string
		in   ir.Expr
		want string
	}{
		{"fold add", bin(ir.Add, u32(2), u32(3)), "5u"},
		{"fold wraps", bin(ir.Add, u32(math.MaxUint32), u32(2)), "1u"},
		{"fold signed wraps", bin(ir.Mul, i32(math.MaxInt32), i32(2)), "-2"},
		{"fold signed div truncates", bin(ir.Div, i32(-7), i32(2)), "-3"},
		{"fold signed rem", bin(ir.Rem, i32(-7), i32(2)), "-1"},
		{"fold arithmetic shift", bin(ir.Shr, i32(-8), i32(1)), "-4"},
		{"fold comparison", bin(ir.Lt, i32(-1), i32(0)), "true"},
		{"fold unsigned comparison", bin(ir.Lt, u32(math.MaxUint32), u32(0)), "false"},
		{"fold float32 rounding", bin(ir.Add, f32(1), f32(1e-8)), "1.0f"},
		{"fold NaN comparison", bin(ir.Ne, f32(0), val(ir.Value{T: ir.Float32, Bits: 0x7fc00000})), "true"},
		{"fold convert wraps", &ir.Convert{To: ir.Uint32, X: i32(-1)}, "4294967295u"},
		{"fold float to int truncates", &ir.Convert{To: ir.Int32, X: f32(-2.7)}, "-2"},
		{"fold min", bin(ir.Min, i32(-1), i32(3)), "-1"},
		{"no fold division by zero", bin(ir.Div, u32(1), u32(0)), "1u / 0u"},
		{"no fold INT_MIN / -1", bin(ir.Div, i32(math.MinInt32), i32(-1)), "(-2147483647 - 1) / (-1)"},
		{"no fold shift by width", bin(ir.Shl, u32(1), u32(32)), "1u << 32u"},
		{"no fold negative shift", bin(ir.Shl, i32(1), i32(-1)), "(int)((unsigned int)1 << (-1))"},
		{"fold float to int saturates", &ir.Convert{To: ir.Int32, X: f32(3e9)}, "2147483647"},
		{"fold float to unsigned saturates", &ir.Convert{To: ir.Uint32, X: f32(-1)}, "0u"},
		{"no fold NaN conversion", &ir.Convert{To: ir.Float32, X: val(ir.FloatValue(ir.Float64, math.NaN()))},
			"(float)__longlong_as_double(0x7ff8000000000001ll)"},
		{"x - c prints a small constant", bin(ir.Add, bin(ir.Sub, x, u32(1)), u32(math.MaxUint32)), "x - 2u"},
		{"no fold NaN result", bin(ir.Sub, f32(math.Inf(1)), f32(math.Inf(1))),
			"__int_as_float(0x7f800000) - __int_as_float(0x7f800000)"},
		{"x+0", bin(ir.Add, x, u32(0)), "x"},
		{"0+x", bin(ir.Add, u32(0), x), "x"},
		{"x-0", bin(ir.Sub, s, i32(0)), "s"},
		{"float x+0 kept (-0 + 0 is +0)", bin(ir.Add, f, f32(0)), "f + 0.0f"},
		{"float x-0", bin(ir.Sub, f, f32(0)), "f"},
		{"x*1", bin(ir.Mul, s, i32(1)), "s"},
		{"float x*1", bin(ir.Mul, f, f32(1)), "f"},
		{"x*0", bin(ir.Mul, s, i32(0)), "0"},
		{"float x*0 kept", bin(ir.Mul, f, f32(0)), "f * 0.0f"},
		{"load*0 kept (it may fail)", bin(ir.Mul, ld, u32(0)), "a[x] * 0u"},
		{"x/1", bin(ir.Div, s, i32(1)), "s"},
		{"x&0", bin(ir.And, x, u32(0)), "0u"},
		{"x|0", bin(ir.Or, x, u32(0)), "x"},
		{"x^0", bin(ir.Xor, x, u32(0)), "x"},
		{"b&false", bin(ir.And, b, val(ir.BoolValue(false))), "false"},
		{"true&b", bin(ir.And, val(ir.BoolValue(true)), b), "b"},
		{"b|true", bin(ir.Or, b, val(ir.BoolValue(true))), "true"},
		{"x&all ones", bin(ir.And, x, u32(math.MaxUint32)), "x"},
		{"signed all ones&s", bin(ir.And, i32(-1), s), "s"},
		{"x|all ones", bin(ir.Or, x, u32(math.MaxUint32)), "4294967295u"},
		{"x&low bits kept", bin(ir.And, x, u32(0xffff)), "x & 65535u"},
		{"load|all ones kept (it may fail)", bin(ir.Or, ld, u32(math.MaxUint32)), "a[x] | 4294967295u"},
		{"x<<0", bin(ir.Shl, x, u32(0)), "x"},
		{"select true", &ir.Select{Cond: val(ir.BoolValue(true)), Then: x, Else: u32(1)}, "x"},
		{"select folded condition", &ir.Select{Cond: bin(ir.Lt, u32(1), u32(0)), Then: x, Else: u32(1)}, "1u"},
		{"!!b", &ir.Unary{Op: ir.Not, X: &ir.Unary{Op: ir.Not, X: b}}, "b"},
		{"~~x", &ir.Unary{Op: ir.Not, X: &ir.Unary{Op: ir.Not, X: x}}, "x"},
		{"convert to same type", &ir.Convert{To: ir.Uint32, X: x}, "x"},
		{"unsigned x/8", bin(ir.Div, x, u32(8)), "x >> 3u"},
		{"unsigned x%8", bin(ir.Rem, x, u32(8)), "x & 7u"},
		{"unsigned x*8", bin(ir.Mul, x, u32(8)), "x << 3u"},
		{"unsigned 8*x", bin(ir.Mul, u32(8), x), "x << 3u"},
		{"signed x/8 kept", bin(ir.Div, s, i32(8)), "s / 8"},
		{"x%1", bin(ir.Rem, x, u32(1)), "0u"},
		{"len of shared", &ir.Len{Array: sh}, "96u"},
		{"nested", bin(ir.Add, bin(ir.Mul, x, bin(ir.Sub, u32(3), u32(2))), bin(ir.Mul, u32(0), u32(7))), "x"},
	} {
		if got := expr(simplifyExpr(c.in)); got != c.want {
			t.Errorf("%s: simplified to %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSimplifyStatements(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output, 2)
	i, j, w := v("i", ir.Uint32), v("j", ir.Uint32), v("w", ir.Uint32)
	yes := val(ir.BoolValue(true))
	no := bin(ir.Gt, u32(0), u32(1))
	k := kernel("dead", []*ir.Array{out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: out}, 10,
		&ir.If{Cond: yes, Pos: at(11), Then: []ir.Stmt{store(out, i, u32(1), 12)},
			Else: []ir.Stmt{store(out, i, u32(2), 13)}},
		&ir.If{Cond: no, Pos: at(14), Then: []ir.Stmt{store(out, i, u32(3), 15)}},
		&ir.For{Var: j, Count: bin(ir.Sub, u32(2), u32(2)), Pos: at(16), Body: []ir.Stmt{store(out, j, u32(4), 17)}},
		&ir.While{Cond: no, Pos: at(18), Body: []ir.Stmt{store(out, i, u32(5), 19)}},
		decl(w, bin(ir.Add, i, u32(0)), 20),
	))
	src, _ := mustCUDA(t, k)
	contains(t, src, "if (i < out_len) out[i] = 1u;", "unsigned int w = i;")
	for _, gone := range []string{"2u", "3u", "4u", "5u", "for (unsigned int j", "while", "if (true"} {
		if strings.Contains(src, gone) {
			t.Errorf("dead code %q survived:\n%s", gone, src)
		}
	}
}
