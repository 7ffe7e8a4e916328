package eval

import (
	"math"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/ir"
)

var allBinOps = []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Rem, ir.And, ir.Or, ir.Xor, ir.Shl, ir.Shr,
	ir.Min, ir.Max, ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge}

type integer interface {
	int32 | uint32 | int64 | uint64
}

// refInt computes op on a and b with Go's arithmetic; fails reports where
// CUDA's behaviour is undefined and the evaluator must report an error.
func refInt[T integer](op ir.BinOp, a, b T) (r ir.Value, fails bool) {
	bits := T(valueOf(a).T.Bits())
	signed := valueOf(T(0)).T.IsSigned()
	minusOne, minimum := ^T(0), T(1)<<(bits-1)
	switch op {
	case ir.Add:
		return valueOf(a + b), false
	case ir.Sub:
		return valueOf(a - b), false
	case ir.Mul:
		return valueOf(a * b), false
	case ir.Div, ir.Rem:
		if b == 0 || (signed && b == minusOne && a == minimum) {
			return r, true
		}
		if op == ir.Div {
			return valueOf(a / b), false
		}
		return valueOf(a % b), false
	case ir.And:
		return valueOf(a & b), false
	case ir.Or:
		return valueOf(a | b), false
	case ir.Xor:
		return valueOf(a ^ b), false
	case ir.Shl, ir.Shr:
		if (signed && b&minimum != 0) || b >= bits {
			return r, true
		}
		if op == ir.Shl {
			return valueOf(a << b), false
		}
		return valueOf(a >> b), false
	case ir.Min:
		return valueOf(min(a, b)), false
	case ir.Max:
		return valueOf(max(a, b)), false
	}
	return refCompare(op, a, b), false
}

func refCompare[T integer | float32 | float64](op ir.BinOp, a, b T) ir.Value {
	switch op {
	case ir.Eq:
		return valueOf(a == b)
	case ir.Ne:
		return valueOf(a != b)
	case ir.Lt:
		return valueOf(a < b)
	case ir.Le:
		return valueOf(a <= b)
	case ir.Gt:
		return valueOf(a > b)
	}
	return valueOf(a >= b)
}

// refFloat computes op with Go's float arithmetic, fmin/fmax for Min/Max.
func refFloat[F float32 | float64](op ir.BinOp, a, b F) ir.Value {
	switch op {
	case ir.Add:
		return valueOf(a + b)
	case ir.Sub:
		return valueOf(a - b)
	case ir.Mul:
		return valueOf(a * b)
	case ir.Div:
		return valueOf(a / b)
	case ir.Rem:
		return valueOf(F(math.Mod(float64(a), float64(b))))
	case ir.Min, ir.Max:
		switch {
		case a != a:
			return valueOf(b)
		case b != b:
			return valueOf(a)
		case op == ir.Min:
			return valueOf(min(a, b))
		}
		return valueOf(max(a, b))
	}
	return refCompare(op, a, b)
}

// checkBinary compares the evaluator with the reference for op on a, b.
func checkBinary(op ir.BinOp, a, b, want ir.Value, fails bool) bool {
	got, err := Expr(&ir.Binary{Op: op, X: &ir.Const{Value: a}, Y: &ir.Const{Value: b}})
	if fails {
		return err != nil
	}
	return err == nil && got == want
}

func intProperty[T integer](t *testing.T, g gopter.Gen) {
	props := properties(t)
	props.Property("binary operators agree with Go", prop.ForAll(func(a, b T) bool {
		for _, op := range allBinOps {
			want, fails := refInt(op, a, b)
			if !checkBinary(op, valueOf(a), valueOf(b), want, fails) {
				t.Logf("%v %v %v: want %v (fails %v)", a, op, b, want, fails)
				return false
			}
		}
		return true
	}, g, g))
	props.TestingRun(t)
}

// edgy generates values of T that are often small or extreme.
func edgy[T integer](g gopter.Gen, edges ...T) gopter.Gen {
	weighted := []gen.WeightedGen{{Weight: 3, Gen: g}}
	for _, e := range edges {
		weighted = append(weighted, gen.WeightedGen{Weight: 1, Gen: gen.Const(e)})
	}
	return gen.Weighted(weighted)
}

func TestIntOperators(t *testing.T) {
	t.Run("int32", func(t *testing.T) {
		intProperty[int32](t, edgy[int32](gen.Int32(), 0, 1, -1, 31, 32, math.MinInt32, math.MaxInt32))
	})
	t.Run("uint32", func(t *testing.T) {
		intProperty[uint32](t, edgy[uint32](gen.UInt32(), 0, 1, 31, 32, math.MaxUint32))
	})
	t.Run("int64", func(t *testing.T) {
		intProperty[int64](t, edgy[int64](gen.Int64(), 0, 1, -1, 63, 64, math.MinInt64, math.MaxInt64))
	})
	t.Run("uint64", func(t *testing.T) {
		intProperty[uint64](t, edgy[uint64](gen.UInt64(), 0, 1, 63, 64, math.MaxUint64))
	})
}

func floatProperty[F float32 | float64](t *testing.T, g gopter.Gen) {
	props := properties(t)
	props.Property("binary operators agree with Go", prop.ForAll(func(a, b F) bool {
		for _, op := range allBinOps {
			if op >= ir.And && op <= ir.Shr {
				continue
			}
			want := refFloat(op, a, b)
			if !checkBinary(op, valueOf(a), valueOf(b), want, false) {
				t.Logf("%v %v %v: want %v", a, op, b, want)
				return false
			}
		}
		return true
	}, g, g))
	props.TestingRun(t)
}

func TestFloatOperators(t *testing.T) {
	specials32 := []gen.WeightedGen{{Weight: 4, Gen: gen.Float32()}}
	specials64 := []gen.WeightedGen{{Weight: 4, Gen: gen.Float64()}}
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -1.5, math.Inf(1), math.Inf(-1), math.NaN(), 1e-45, 3e38} {
		specials32 = append(specials32, gen.WeightedGen{Weight: 1, Gen: gen.Const(float32(x))})
		specials64 = append(specials64, gen.WeightedGen{Weight: 1, Gen: gen.Const(x)})
	}
	t.Run("float32", func(t *testing.T) { floatProperty[float32](t, gen.Weighted(specials32)) })
	t.Run("float64", func(t *testing.T) { floatProperty[float64](t, gen.Weighted(specials64)) })
}

func TestFloat32Rounding(t *testing.T) {
	// 16777216 + 1 is not a float32: the sum rounds to 16777216.
	got, err := Expr(&ir.Binary{Op: ir.Add, X: konst(float32(16777216)), Y: konst(float32(1))})
	if err != nil || got != valueOf(float32(16777216)) {
		t.Fatalf("16777216 + 1 in float32 = %v, %v", got, err)
	}
	got, err = Expr(&ir.Binary{Op: ir.Mul, X: konst(float32(0.1)), Y: konst(float32(3))})
	if want := valueOf(float32(0.1) * float32(3)); err != nil || got != want {
		t.Fatalf("0.1 * 3 in float32 = %v, want %v", got, want)
	}
	got, _ = Expr(&ir.Binary{Op: ir.Min, X: konst(float32(0)), Y: konst(float32(math.Copysign(0, -1)))})
	if !math.Signbit(got.Float()) {
		t.Fatalf("fminf(+0, -0) = %v, want -0", got)
	}
}

func TestBoolOperators(t *testing.T) {
	for _, a := range []bool{false, true} {
		for _, b := range []bool{false, true} {
			tests := map[ir.BinOp]bool{ir.And: a && b, ir.Or: a || b, ir.Xor: a != b, ir.Eq: a == b, ir.Ne: a != b}
			for op, want := range tests {
				if got, err := Expr(bin(op, konst(a), konst(b))); err != nil || got != valueOf(want) {
					t.Errorf("%v %v %v = %v, %v; want %v", a, op, b, got, err, want)
				}
			}
		}
		if got, err := Expr(&ir.Unary{Op: ir.Not, X: konst(a)}); err != nil || got != valueOf(!a) {
			t.Errorf("!%v = %v, %v", a, got, err)
		}
	}
	// bools are not ordered: the operator table defines no order or
	// arithmetic on them
	for _, op := range []ir.BinOp{ir.Add, ir.Div, ir.Shl, ir.Lt, ir.Ge, ir.Min, ir.Max} {
		if _, err := Expr(bin(op, konst(true), konst(true))); err == nil {
			t.Errorf("%v on bool: no error", op)
		}
	}
}

func TestUnaryOperators(t *testing.T) {
	tests := []struct {
		op   ir.UnOp
		x    ir.Expr
		want ir.Value
	}{
		{ir.Neg, konst(int32(math.MinInt32)), valueOf(int32(math.MinInt32))},
		{ir.Neg, konst(int32(5)), valueOf(int32(-5))},
		{ir.Neg, konst(uint32(1)), valueOf(uint32(math.MaxUint32))},
		{ir.Neg, konst(uint64(2)), valueOf(uint64(math.MaxUint64 - 1))},
		{ir.Neg, konst(float32(0)), valueOf(float32(math.Copysign(0, -1)))},
		{ir.Neg, konst(float64(2.5)), valueOf(float64(-2.5))},
		{ir.Not, konst(int32(0)), valueOf(int32(-1))},
		{ir.Not, konst(uint32(0xF0F0F0F0)), valueOf(uint32(0x0F0F0F0F))},
		{ir.Not, konst(int64(7)), valueOf(int64(^7))},
	}
	for _, tt := range tests {
		if got, err := Expr(&ir.Unary{Op: tt.op, X: tt.x}); err != nil || got != tt.want {
			t.Errorf("unary %d of %v = %v, %v; want %v", tt.op, tt.x, got, err, tt.want)
		}
	}
	if _, err := Expr(&ir.Unary{Op: ir.Not, X: konst(float32(1))}); err == nil {
		t.Error("Not on float32: no error")
	}
}

func TestIntegerFaults(t *testing.T) {
	tests := []struct {
		name string
		e    ir.Expr
		msg  string
	}{
		{"div by zero", bin(ir.Div, konst(int32(1)), konst(int32(0))), "division or remainder by zero"},
		{"rem by zero", bin(ir.Rem, konst(uint64(1)), konst(uint64(0))), "division or remainder by zero"},
		{"INT_MIN/-1", bin(ir.Div, konst(int32(math.MinInt32)), konst(int32(-1))), "overflow"},
		{"INT64_MIN%-1", bin(ir.Rem, konst(int64(math.MinInt64)), konst(int64(-1))), "overflow"},
		{"shift by width", bin(ir.Shl, konst(uint32(1)), konst(uint32(32))), "shift count"},
		{"negative shift", bin(ir.Shr, konst(int64(1)), konst(int64(-1))), "shift count"},
	}
	for _, tt := range tests {
		_, err := Expr(tt.e)
		wantError(t, err, tt.msg)
	}
	if v, err := Expr(bin(ir.Shr, konst(int32(-8)), konst(int32(1)))); err != nil || v != valueOf(int32(-4)) {
		t.Errorf("-8 >> 1 = %v, %v; want arithmetic shift -4", v, err)
	}
	if v, err := Expr(bin(ir.Div, konst(int32(-7)), konst(int32(2)))); err != nil || v != valueOf(int32(-3)) {
		t.Errorf("-7 / 2 = %v, %v; want -3 (toward zero)", v, err)
	}
	if v, err := Expr(bin(ir.Rem, konst(int32(-7)), konst(int32(2)))); err != nil || v != valueOf(int32(-1)) {
		t.Errorf("-7 %% 2 = %v, %v; want -1", v, err)
	}
}

func convertTo(to ir.Type, x ir.Expr) (ir.Value, error) { return Expr(&ir.Convert{To: to, X: x}) }

func TestConversions(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		x    ir.Expr
		want ir.Value
	}{
		{konst(int32(-1)), valueOf(uint32(math.MaxUint32))},
		{konst(int32(-1)), valueOf(int64(-1))},
		{konst(int32(-1)), valueOf(uint64(math.MaxUint64))},
		{konst(uint32(math.MaxUint32)), valueOf(int64(math.MaxUint32))},
		{konst(uint64(1<<40 + 5)), valueOf(int32(5))},
		{konst(int64(-1 << 40)), valueOf(uint32(0))},
		{konst(float32(2.9)), valueOf(int32(2))},
		{konst(float32(-2.9)), valueOf(int32(-2))},
		{konst(float64(-2.9)), valueOf(uint32(0))},
		{konst(float32(nan)), valueOf(int32(0))},
		{konst(float64(nan)), valueOf(uint64(0))},
		{konst(float32(inf)), valueOf(int32(math.MaxInt32))},
		{konst(float32(-inf)), valueOf(int32(math.MinInt32))},
		{konst(float64(1e20)), valueOf(int64(math.MaxInt64))},
		{konst(float64(-1e20)), valueOf(int64(math.MinInt64))},
		{konst(float64(1e20)), valueOf(uint64(1e20 - (1e20 - math.MaxUint64)))},
		{konst(float64(4294967296.5)), valueOf(uint32(math.MaxUint32))},
		{konst(float64(2147483647.9)), valueOf(int32(math.MaxInt32))},
		{konst(int64(1<<53 + 1)), valueOf(float64(1 << 53))},
		{konst(int64(16777217)), valueOf(float32(16777216))},
		{konst(uint64(math.MaxUint64)), valueOf(float32(math.MaxUint64))},
		{konst(int64(-3)), valueOf(float32(-3))},
		{konst(float64(0.1)), valueOf(float32(0.1))},
		{konst(float32(0.1)), valueOf(float64(float32(0.1)))},
		{konst(true), valueOf(float32(1))},
		{konst(true), valueOf(int64(1))},
		{konst(false), valueOf(uint32(0))},
		{konst(int32(-2)), valueOf(true)},
		{konst(uint64(0)), valueOf(false)},
		{konst(float32(math.Copysign(0, -1))), valueOf(false)},
		{konst(float64(nan)), valueOf(true)},
	}
	for _, tt := range tests {
		if got, err := convertTo(tt.want.T, tt.x); err != nil || got != tt.want {
			t.Errorf("convert %v to %v = %v, %v; want %v", tt.x.(*ir.Const).Value, tt.want.T, got, err, tt.want)
		}
	}
}

// TestConversionsAgreeWithGo checks in-range conversions between all types
// against Go's conversions, which agree with CUDA's there.
func TestConversionsAgreeWithGo(t *testing.T) {
	props := properties(t)
	props.Property("int64 source", prop.ForAll(func(x int64) bool {
		return convertsAs(t, konst(x), valueOf(int32(x)), valueOf(uint32(x)), valueOf(uint64(x)),
			valueOf(float32(x)), valueOf(float64(x)), valueOf(x != 0))
	}, gen.Int64()))
	props.Property("uint64 source", prop.ForAll(func(x uint64) bool {
		return convertsAs(t, konst(x), valueOf(int32(x)), valueOf(int64(x)), valueOf(float32(x)), valueOf(float64(x)))
	}, gen.UInt64()))
	props.Property("int32 source", prop.ForAll(func(x int32) bool {
		return convertsAs(t, konst(x), valueOf(uint32(x)), valueOf(int64(x)), valueOf(uint64(x)), valueOf(float32(x)))
	}, gen.Int32()))
	props.Property("float64 in range", prop.ForAll(func(x float64) bool {
		return convertsAs(t, konst(x), valueOf(int32(x)), valueOf(int64(x)), valueOf(float32(x)))
	}, gen.Float64Range(-2e9, 2e9)))
	props.Property("float32 in range", prop.ForAll(func(x float32) bool {
		return convertsAs(t, konst(x), valueOf(int32(x)), valueOf(int64(x)), valueOf(float64(x)))
	}, gen.Float32Range(-2e9, 2e9)))
	props.Property("float32 in unsigned range", prop.ForAll(func(x float32) bool {
		return convertsAs(t, konst(x), valueOf(uint32(x)), valueOf(uint64(x)))
	}, gen.Float32Range(0, 4e9)))
	props.TestingRun(t)
}

func convertsAs(t *testing.T, x ir.Expr, wants ...ir.Value) bool {
	for _, want := range wants {
		if got, err := convertTo(want.T, x); err != nil || got != want {
			t.Logf("convert %v to %v = %v, %v; want %v", x.(*ir.Const).Value, want.T, got, err, want)
			return false
		}
	}
	return true
}

func TestClosedExpressionsOnly(t *testing.T) {
	for _, e := range []ir.Expr{index("i"), special(ir.ThreadIdx), &ir.Len{Array: global("a", ir.Uint32, ir.Input)},
		&ir.Invalid{T: ir.Int32, Msg: "shift by 40", Pos: at(9)}, nil, &ir.Binary{Op: ir.Add, X: konst(int32(1))},
		bin(ir.Add, konst(int32(1)), konst(uint32(1)))} {
		if v, err := Expr(e); err == nil {
			t.Errorf("Expr(%#v) = %v, want an error", e, v)
		}
	}
	got, err := Expr(&ir.Select{Cond: bin(ir.Lt, konst(int32(1)), konst(int32(2))),
		Then: konst(int32(10)), Else: bin(ir.Div, konst(int32(1)), konst(int32(0)))})
	if err != nil || got != valueOf(int32(10)) {
		t.Errorf("select evaluates only the chosen side: got %v, %v", got, err)
	}
}
