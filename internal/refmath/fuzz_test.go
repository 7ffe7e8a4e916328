package refmath

import (
	"math"
	"math/big"
	"testing"
)

// FuzzAgainstBigFloat compares every function, at the float64s of
// arbitrary bits, with the math/big reference: within one ulp of the
// correctly rounded result wherever the reference applies, and an
// infinity or zero of the right sign where Pow's result is far beyond the
// range of float64.
func FuzzAgainstBigFloat(f *testing.F) {
	f.Add(math.Float64bits(5e-324), math.Float64bits(-0.0005397017361569502))
	f.Add(math.Float64bits(1.7976931348623157e308), math.Float64bits(1.6666666666666667))
	f.Add(math.Float64bits(1.0000000000000147), math.Float64bits(4e16))
	f.Add(math.Float64bits(709.5), math.Float64bits(-1074.4))
	f.Add(math.Float64bits(6381956970095103*0x1p797), math.Float64bits(-3))
	f.Fuzz(func(t *testing.T, xBits, yBits uint64) {
		x, y := math.Float64frombits(xBits), math.Float64frombits(yBits)
		if math.IsInf(x, 0) || x != x || math.IsInf(y, 0) || y != y {
			return // the special cases have their own test
		}
		c := &checker{t: t, inexact: map[string]int{}, total: map[string]int{}}
		if x > 0 {
			c.check("Log", []float64{x}, Log(x), round(bigLog(x)))
			c.check("Log2", []float64{x}, Log2(x), round(new(big.Float).Quo(bigLog(x), bigLn2())))
		}
		e := math.Mod(x, 1500) // beyond, the results are the same infinities and zeros
		c.check("Exp", []float64{e}, Exp(e), round(bigExp(bigFloat(e))))
		c.check("Exp2", []float64{e}, Exp2(e), round(bigExp(new(big.Float).SetPrec(bigPrec).Mul(bigFloat(e), bigLn2()))))
		s, co := bigSinCos(x)
		c.check("Sin", []float64{x}, Sin(x), round(s))
		c.check("Cos", []float64{x}, Cos(x), round(co))
		c.check("Tan", []float64{x}, Tan(x), round(s.Quo(s, co)))
		if x == 0 || x < 0 && y != math.Trunc(y) {
			return
		}
		want := 0.0
		p := new(big.Float).SetPrec(bigPrec).Mul(bigLog(math.Abs(x)), bigFloat(y))
		switch t, _ := p.Float64(); {
		case t > 1000:
			want = math.Inf(1)
		case t >= -1000:
			want = round(bigExp(p))
		}
		if x < 0 && isOddInteger(y) {
			want = -want
		}
		c.check("Pow", []float64{x, y}, Pow(x, y), want)
	})
}
