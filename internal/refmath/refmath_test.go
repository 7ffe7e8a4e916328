package refmath

import (
	"maps"
	"math"
	"slices"
	"testing"
)

// ulps returns the distance between a and b in units in the last place:
// the number of float64s between them, 0 for two NaNs and the largest
// distance for a NaN and a number.
func ulps(a, b float64) uint64 {
	na, nb := a != a, b != b
	switch {
	case na && nb:
		return 0
	case na || nb:
		return math.MaxUint64
	}
	ordered := func(f float64) int64 {
		i := int64(math.Float64bits(f))
		if i < 0 {
			i = math.MinInt64 - i
		}
		return i
	}
	d := ordered(a) - ordered(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// maxULP is the largest distance from the correctly rounded result the
// tests accept: the functions round a value within about 2^-100 of the
// exact one, so they differ from the correctly rounded result only where
// the exact value lies that close to a midpoint between two float64s.
const maxULP = 1

// checker counts, per function, the results that are not correctly
// rounded and fails on those further off than maxULP.
type checker struct {
	t       *testing.T
	inexact map[string]int
	total   map[string]int
}

func newChecker(t *testing.T) *checker {
	return &checker{t: t, inexact: map[string]int{}, total: map[string]int{}}
}

func (c *checker) check(name string, args []float64, got, want float64) bool {
	c.t.Helper()
	c.total[name]++
	d := ulps(got, want)
	if d > 0 {
		c.inexact[name]++
	}
	if d > maxULP {
		c.t.Errorf("%s%v = %v, correctly rounded %v: %d ulps", name, args, got, want, d)
		return false
	}
	return true
}

func (c *checker) log() {
	for _, name := range slices.Sorted(maps.Keys(c.total)) {
		n := c.total[name]
		c.t.Logf("%s: %d of %d results correctly rounded", name, n-c.inexact[name], n)
	}
}

// TestCorrectlyRoundedVectors compares every function with correctly
// rounded values at hard arguments: subnormals, arguments near 1 and near
// the ends of the exponent range, huge arguments of the trigonometric
// functions (the closest float64 to a multiple of π/2 among them), powers
// near a midpoint and with subnormal or overflowing results. Each of them
// is one Go's math package gets wrong or is close to one it does.
func TestCorrectlyRoundedVectors(t *testing.T) {
	c := newChecker(t)
	for _, f := range []struct {
		name  string
		f     func(float64) float64
		cases [][2]float64
	}{{"Log", Log, logCases}, {"Log2", Log2, log2Cases}, {"Exp", Exp, expCases}, {"Exp2", Exp2, exp2Cases}} {
		for _, v := range f.cases {
			c.check(f.name, v[:1], f.f(v[0]), v[1])
		}
	}
	for _, v := range powCases {
		c.check("Pow", v[:2], Pow(v[0], v[1]), v[2])
		if isOddInteger(v[1]) {
			c.check("Pow", []float64{-v[0], v[1]}, Pow(-v[0], v[1]), -v[2])
		} else if v[1] == math.Trunc(v[1]) {
			c.check("Pow", []float64{-v[0], v[1]}, Pow(-v[0], v[1]), v[2])
		}
	}
	for _, v := range trigCases {
		for _, sign := range []float64{1, -1} {
			x := sign * v[0]
			c.check("Sin", []float64{x}, Sin(x), sign*v[1])
			c.check("Cos", []float64{x}, Cos(x), v[2])
			c.check("Tan", []float64{x}, Tan(x), sign*v[3])
		}
	}
	c.log()
}

// TestSpecialCases checks the results C's functions define exactly, bit
// for bit (the sign of a zero included; any NaN stands for every NaN).
func TestSpecialCases(t *testing.T) {
	inf, nan, negZero := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	type row struct {
		name      string
		got, want float64
	}
	rows := []row{
		{"Log(+0)", Log(0), -inf}, {"Log(-0)", Log(negZero), -inf}, {"Log(1)", Log(1), 0}, {"Log(-1)", Log(-1), nan},
		{"Log(+Inf)", Log(inf), inf}, {"Log(-Inf)", Log(-inf), nan}, {"Log(NaN)", Log(nan), nan},
		{"Log2(+0)", Log2(0), -inf}, {"Log2(-0)", Log2(negZero), -inf}, {"Log2(1)", Log2(1), 0},
		{"Log2(-5e-324)", Log2(-5e-324), nan}, {"Log2(+Inf)", Log2(inf), inf}, {"Log2(NaN)", Log2(nan), nan},
		{"Log2(5e-324)", Log2(5e-324), -1074}, {"Log2(2^1023)", Log2(0x1p1023), 1023}, {"Log2(0.5)", Log2(0.5), -1},
		{"Exp(+0)", Exp(0), 1}, {"Exp(-0)", Exp(negZero), 1}, {"Exp(+Inf)", Exp(inf), inf}, {"Exp(-Inf)", Exp(-inf), 0},
		{"Exp(NaN)", Exp(nan), nan}, {"Exp(710)", Exp(710), inf}, {"Exp(-746)", Exp(-746), 0},
		{"Exp(-MaxFloat64)", Exp(-math.MaxFloat64), 0}, {"Exp(MaxFloat64)", Exp(math.MaxFloat64), inf},
		{"Exp2(0)", Exp2(0), 1}, {"Exp2(+Inf)", Exp2(inf), inf}, {"Exp2(-Inf)", Exp2(-inf), 0}, {"Exp2(NaN)", Exp2(nan), nan},
		{"Exp2(-1074)", Exp2(-1074), 5e-324}, {"Exp2(-1075)", Exp2(-1075), 0}, {"Exp2(-1076)", Exp2(-1076), 0}, {"Exp2(1023)", Exp2(1023), 0x1p1023},
		{"Exp2(1024)", Exp2(1024), inf}, {"Exp2(-1022)", Exp2(-1022), 0x1p-1022}, {"Exp2(52)", Exp2(52), 0x1p52},
		{"Sin(+0)", Sin(0), 0}, {"Sin(-0)", Sin(negZero), negZero}, {"Sin(+Inf)", Sin(inf), nan},
		{"Sin(-Inf)", Sin(-inf), nan}, {"Sin(NaN)", Sin(nan), nan}, {"Sin(-5e-324)", Sin(-5e-324), -5e-324},
		{"Cos(+0)", Cos(0), 1}, {"Cos(-0)", Cos(negZero), 1}, {"Cos(+Inf)", Cos(inf), nan}, {"Cos(NaN)", Cos(nan), nan},
		{"Tan(+0)", Tan(0), 0}, {"Tan(-0)", Tan(negZero), negZero}, {"Tan(-Inf)", Tan(-inf), nan}, {"Tan(NaN)", Tan(nan), nan},
		// C99 F.9.4.4
		{"Pow(NaN, 0)", Pow(nan, 0), 1}, {"Pow(NaN, -0)", Pow(nan, negZero), 1}, {"Pow(1, NaN)", Pow(1, nan), 1},
		{"Pow(1, -Inf)", Pow(1, -inf), 1}, {"Pow(2, NaN)", Pow(2, nan), nan}, {"Pow(NaN, 1)", Pow(nan, 1), nan},
		{"Pow(-0, -3)", Pow(negZero, -3), -inf}, {"Pow(+0, -3)", Pow(0, -3), inf}, {"Pow(-0, -2)", Pow(negZero, -2), inf},
		{"Pow(-0, -0.5)", Pow(negZero, -0.5), inf}, {"Pow(-0, -Inf)", Pow(negZero, -inf), inf},
		{"Pow(-0, 3)", Pow(negZero, 3), negZero}, {"Pow(+0, 3)", Pow(0, 3), 0}, {"Pow(-0, 2)", Pow(negZero, 2), 0},
		{"Pow(-0, 0.5)", Pow(negZero, 0.5), 0}, {"Pow(-0, +Inf)", Pow(negZero, inf), 0},
		{"Pow(-1, +Inf)", Pow(-1, inf), 1}, {"Pow(-1, -Inf)", Pow(-1, -inf), 1},
		{"Pow(0.5, -Inf)", Pow(0.5, -inf), inf}, {"Pow(-0.5, +Inf)", Pow(-0.5, inf), 0},
		{"Pow(3, -Inf)", Pow(3, -inf), 0}, {"Pow(-3, +Inf)", Pow(-3, inf), inf},
		{"Pow(-Inf, -3)", Pow(-inf, -3), negZero}, {"Pow(-Inf, -2)", Pow(-inf, -2), 0}, {"Pow(-Inf, -0.5)", Pow(-inf, -0.5), 0},
		{"Pow(-Inf, 3)", Pow(-inf, 3), -inf}, {"Pow(-Inf, 2)", Pow(-inf, 2), inf}, {"Pow(-Inf, 0.5)", Pow(-inf, 0.5), inf},
		{"Pow(+Inf, -1)", Pow(inf, -1), 0}, {"Pow(+Inf, 0.5)", Pow(inf, 0.5), inf},
		{"Pow(-2, 0.5)", Pow(-2, 0.5), nan}, {"Pow(-2, 2^53+2)", Pow(-2, 0x1p53+2), inf}, {"Pow(-2, 3)", Pow(-2, 3), -8},
		{"Pow(-0.5, 2^60)", Pow(-0.5, 0x1p60), 0}, {"Pow(-2, -1077)", Pow(-2, -1077), negZero}, {"Pow(2, 1024)", Pow(2, 1024), inf},
		{"Pow(-2, 1025)", Pow(-2, 1025), -inf}, {"Pow(2, -1074)", Pow(2, -1074), 5e-324}, {"Pow(MaxFloat64, MaxFloat64)",
			Pow(math.MaxFloat64, math.MaxFloat64), inf}, {"Pow(5e-324, MaxFloat64)", Pow(5e-324, math.MaxFloat64), 0},
		{"Pow(x, 1)", Pow(0.1, 1), 0.1}, {"Pow(3, 2)", Pow(3, 2), 9}, {"Pow(4, 0.5)", Pow(4, 0.5), 2},
	}
	for _, r := range rows {
		if math.Float64bits(r.got) != math.Float64bits(r.want) && !(r.got != r.got && r.want != r.want) {
			t.Errorf("%s = %v, want %v", r.name, r.got, r.want)
		}
	}
}

// TestConstants compares the constants computed with math/big with their
// values from mpmath.
func TestConstants(t *testing.T) {
	ready()
	words := [twoOverPiWords]uint64{0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041, 0xfe5163abdebbc561,
		0xb7246e3a424dd2e0, 0x06492eea09d1921c, 0xfe1deb1cb129a73e, 0xe88235f52ebb4484, 0xe99c7026b45f7e41,
		0x3991d639835339f4, 0x9c845f8bbdf9283b, 0x1ff897ffde05980f, 0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7,
		0x4f463f669e5fea2d, 0x7527bac7ebe5f17b, 0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab,
		0xf0cfbc209af4361d, 0xa9e391615ee61b08}
	if twoOverPi[0] != 0 || twoOverPi[len(twoOverPi)-1] != 0 || [twoOverPiWords]uint64(twoOverPi[1:]) != words {
		t.Errorf("2/π: %#x, want 0, %#x, 0", twoOverPi, words)
	}
	for _, c := range []struct {
		name      string
		got, want dd
	}{
		{"π/2", piOver2, dd{1.5707963267948966, 6.123233995736766e-17}},
		{"ln 2", ln2, dd{0.6931471805599453, 2.3190468138462996e-17}},
		{"1/ln 2", invLn2, dd{1.4426950408889634, 2.0355273740931033e-17}},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
