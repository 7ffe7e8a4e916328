package ir

import (
	"math"
	"math/big"
	"testing"

	"github.com/obsidian-go/obsidian/internal/proptest"
)

func apply(t *testing.T, o *Operation, args ...Value) Value {
	t.Helper()
	v, f, ok := o.Apply(args...)
	if !ok || f != NoFault {
		t.Fatalf("%s%v: %v, %v", o.Name, args, f, ok)
	}
	return v
}

// TestIntegerIntrinsics checks the integer intrinsics on values whose
// results CUDA's documentation states.
func TestIntegerIntrinsics(t *testing.T) {
	u32 := func(v uint64) Value { return UintValue(Uint32, v) }
	i32 := func(v int64) Value { return IntValue(Int32, v) }
	i64 := func(v int64) Value { return IntValue(Int64, v) }
	u64 := func(v uint64) Value { return UintValue(Uint64, v) }
	for _, c := range []struct {
		o    UnOp
		x    Value
		want Value
	}{
		{PopCount, u32(0xf0f0), u32(8)},
		{PopCount, i32(-1), i32(32)},
		{PopCount, u64(math.MaxUint64), u64(64)},
		{LeadingZeros, u32(0), u32(32)},
		{LeadingZeros, u32(1), u32(31)},
		{LeadingZeros, i32(-1), i32(0)},
		{LeadingZeros, u64(1 << 40), u64(23)},
		{FindFirstSet, u32(0), u32(0)},
		{FindFirstSet, u32(8), u32(4)},
		{FindFirstSet, i64(math.MinInt64), i64(64)},
		{BitReverse, u32(1), u32(1 << 31)},
		{BitReverse, i32(1), i32(math.MinInt32)},
		{BitReverse, u64(0xff), u64(0xff << 56)},
		{Abs, i32(-5), i32(5)},
		{Abs, i32(math.MinInt32), i32(math.MinInt32)},
		{Abs, i64(math.MinInt64 + 1), i64(math.MaxInt64)},
		{Abs, FloatValue(Float32, math.Copysign(0, -1)), FloatValue(Float32, 0)},
	} {
		if got := apply(t, c.o.Operation(), c.x); got != c.want {
			t.Errorf("%v(%v) = %v, want %v", c.o, c.x, got, c.want)
		}
	}
	for _, c := range []struct {
		x, y, want Value
	}{
		{u32(1 << 31), u32(4), u32(2)},
		{i32(-1), i32(1), i32(-1)},
		{i32(math.MinInt32), i32(math.MinInt32), i32(1 << 30)},
		{u64(math.MaxUint64), u64(math.MaxUint64), u64(math.MaxUint64 - 1)},
		{i64(-1), i64(1), i64(-1)},
		{i64(math.MinInt64), i64(math.MinInt64), i64(1 << 62)},
		{i64(math.MaxInt64), i64(-2), i64(-1)},
	} {
		if got := apply(t, MulHi.Operation(), c.x, c.y); got != c.want {
			t.Errorf("MulHi(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	for _, c := range []struct {
		o          TernOp
		x, y, z    uint64
		want       uint64
		whatItDoes string
	}{
		{BytePerm, 0x03020100, 0x07060504, 0x7531, 0x07050301, "odd bytes"},
		{BytePerm, 0x03020100, 0x07060504, 0x0123, 0x00010203, "reversed"},
		{BytePerm, 0x03020100, 0x07060504, 0x8888cccc, 0x04040404, "the high bit of each selector nibble ignored"},
		{FunnelShiftL, 0x80000000, 0x1, 1, 0x3, "a bit carried up"},
		{FunnelShiftL, 0x12345678, 0x9abcdef0, 36, 0xabcdef01, "the count taken mod 32"},
		{FunnelShiftR, 0x1, 0x3, 1, 0x80000000, "a bit carried down"},
		{FunnelShiftR, 0x12345678, 0x9abcdef0, 0, 0x12345678, "no shift"},
	} {
		if got := apply(t, c.o.Operation(), u32(c.x), u32(c.y), u32(c.z)); got.Bits != c.want {
			t.Errorf("%v(%#x, %#x, %#x) = %#x, want %#x (%s)", c.o, c.x, c.y, c.z, got.Bits, c.want, c.whatItDoes)
		}
	}
}

// TestFloatIntrinsics checks special values of the float intrinsics.
func TestFloatIntrinsics(t *testing.T) {
	f32 := func(v float64) Value { return FloatValue(Float32, v) }
	f64 := func(v float64) Value { return FloatValue(Float64, v) }
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		o    UnOp
		x    Value
		want Value
	}{
		{Sqrt, f32(2), f32(math.Sqrt(2))},
		{Sqrt, f64(-0.0), f64(-0.0)},
		{Round, f32(2.5), f32(3)},
		{Round, f64(-2.5), f64(-3)},
		{Trunc, f64(-2.7), f64(-2)},
		{RoundEven, f32(2.5), f32(2)},
		{RoundEven, f64(-3.5), f64(-4)},
		{Floor, f32(-0.5), f32(-1)},
		{Ceil, f32(-0.5), f32(math.Copysign(0, -1))},
		{IsNaN, f32(nan), BoolValue(true)},
		{IsInf, f64(-inf), BoolValue(true)},
		{IsFinite, f64(inf), BoolValue(false)},
		{IsFinite, f32(1), BoolValue(true)},
		{FloatBits, f32(1), UintValue(Uint32, 0x3f800000)},
		{FloatBits, f64(-2), UintValue(Uint64, 0xc000000000000000)},
		{FloatFromBits, UintValue(Uint32, 0x7f800000), f32(inf)},
		{Exp, f64(0), f64(1)},
		{Log2, f32(8), f32(3)},
		{Rsqrt, f32(math.Copysign(0, -1)), f32(-inf)},
	} {
		if got := apply(t, c.o.Operation(), c.x); got != c.want {
			t.Errorf("%v(%v) = %v, want %v", c.o, c.x, got, c.want)
		}
	}
	if got := apply(t, Copysign.Operation(), f32(2), f32(math.Copysign(0, -1))); got != f32(-2) {
		t.Errorf("Copysign(2, -0) = %v", got)
	}
	if got := apply(t, Pow.Operation(), f64(nan), f64(0)); got != f64(1) {
		t.Errorf("Pow(NaN, 0) = %v, want 1 as C's pow", got)
	}
}

// TestFMA32IsRoundedOnce compares float32 FMA with the exact sum rounded
// by math/big, on operands chosen so that the product and the addend
// overlap, where rounding twice (to float64, then float32) is most often
// wrong.
func TestFMA32IsRoundedOnce(t *testing.T) {
	rng := proptest.Parameters(t, 1).Rng
	fma := FMA.Operation()
	f32 := func(e int) float32 {
		return float32(math.Ldexp(1+rng.Float64(), e)) * float32(1-2*rng.Intn(2))
	}
	cases := 20000
	if *proptest.Long {
		cases *= 100
	}
	// x * y + z = 1 + 2^-24 + 2^-60: just above the midpoint of 1 and the
	// next float32, but 1 + 2^-24 exactly once rounded to float64, which then
	// rounds (to even) down.
	x, y, z := math.Float32frombits(0x3f800001), math.Float32frombits(0x3f7fffff), float32(math.Ldexp(1+0x1p-13, -47))
	if got := apply(t, fma, FloatValue(Float32, float64(x)), FloatValue(Float32, float64(y)),
		FloatValue(Float32, float64(z))); got.Bits != 0x3f800001 {
		t.Errorf("FMA(%g, %g, %g) = %#x, want 0x3f800001", x, y, z, got.Bits)
	}
	for range cases {
		e := rng.Intn(60) - 30
		x, y := f32(e), f32(rng.Intn(20)-10)
		z := f32(e + rng.Intn(30) - 15)
		if rng.Intn(4) == 0 { // the addend cancels most of the product
			z = -x * y
			z = math.Nextafter32(z, float32(rng.NormFloat64()))
		}
		exact := new(big.Float).SetPrec(512).SetFloat64(float64(x))
		exact.Mul(exact, new(big.Float).SetFloat64(float64(y)))
		exact.Add(exact, new(big.Float).SetFloat64(float64(z)))
		want, _ := exact.Float32()
		got := apply(t, fma, FloatValue(Float32, float64(x)), FloatValue(Float32, float64(y)), FloatValue(Float32, float64(z)))
		if math.Float32bits(float32(got.Float())) != math.Float32bits(want) {
			t.Fatalf("FMA(%g, %g, %g) = %g, want %g", x, y, z, got.Float(), want)
		}
	}
}
