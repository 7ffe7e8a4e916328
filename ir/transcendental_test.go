package ir_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// TestFloat64TranscendentalsCorrectlyRounded applies the operator table's
// float64 transcendental operations to arguments where Go's math package
// is far from the correctly rounded result (a subnormal logarithm, Log2
// near 1, sines of huge arguments, powers, Exp near overflow, a subnormal
// Exp2) and where a GPU is not: the evaluator must be within one ulp. The
// expected values are correctly rounded (mpmath at 2400 bits).
func TestFloat64TranscendentalsCorrectlyRounded(t *testing.T) {
	f := func(x float64) ir.Value { return ir.FloatValue(ir.Float64, x) }
	for _, c := range []struct {
		op   *ir.Operation
		args []float64
		want float64
	}{
		{ir.Log.Operation(), []float64{5e-324}, -744.4400719213812},
		{ir.Log2.Operation(), []float64{1.0873482048922294}, 0.1208140130676501},
		{ir.Log2.Operation(), []float64{1.0000000000000009}, 1.2813706015259665e-15},
		{ir.Exp.Operation(), []float64{709.5}, 1.3549863193146328e+308},
		{ir.Exp2.Operation(), []float64{-1074.4}, 5e-324},
		{ir.Sin.Operation(), []float64{1.7976931348623157e+308}, 0.004961954789184062},
		{ir.Sin.Operation(), []float64{1.8446744073709552e+19}, 0.023598509904439558},
		{ir.Cos.Operation(), []float64{9.223372036854776e+18}, 0.011800076512800236},
		{ir.Tan.Operation(), []float64{9.223372036854776e+18}, 84.73931296875567},
		{ir.Pow.Operation(), []float64{5e-324, -0.0005397017361569502}, 1.4944759335711912},
		{ir.Pow.Operation(), []float64{2.2250738585072014e-308, -0.75}, 5.488980354903168e+230},
		{ir.Pow.Operation(), []float64{1.0467822027233358e+16, -2.5}, 8.919883341283901e-41},
		{ir.Pow.Operation(), []float64{5.296236881759536e+17, 1.6666666666666667}, 3.4669347565507404e+29},
		{ir.Pow.Operation(), []float64{6.0933518766377825e-15, 1.3333333333333333}, 1.112948352952093e-19},
		{ir.Pow.Operation(), []float64{1.0000000000000147, 4e+16}, 3.823412626715133e+254},
		{ir.Pow.Operation(), []float64{-0.9999999999999999, 3}, -0.9999999999999997},
	} {
		args := make([]ir.Value, len(c.args))
		for i, a := range c.args {
			args[i] = f(a)
		}
		v, fault, ok := c.op.Apply(args...)
		if !ok || fault != ir.NoFault {
			t.Fatalf("%s%v: not applied (%v, %v)", c.op.Name, c.args, ok, fault)
		}
		if d := ulps(ir.Float64, v, f(c.want)); d > 1 {
			t.Errorf("%s%v = %v, correctly rounded %v: %d ulps", c.op.Name, c.args, v.Float(), c.want, d)
		}
	}
}
