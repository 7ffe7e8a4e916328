package refmath

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
)

// argument returns a random finite float64 drawn by kind: arbitrary bits
// (mostly huge or tiny), a normal number times 10^±20, a number near 1, a
// number of moderate size, or a subnormal.
func argument(seed int64) float64 {
	rng := rand.New(rand.NewSource(seed))
	for {
		var x float64
		switch rng.Intn(5) {
		case 0:
			x = math.Float64frombits(rng.Uint64())
		case 1:
			x = rng.NormFloat64() * math.Pow(10, float64(rng.Intn(41)-20))
		case 2:
			x = 1 + (2*rng.Float64()-1)*math.Ldexp(1, -rng.Intn(54))
		case 3:
			x = (2*rng.Float64() - 1) * 800
		case 4:
			x = math.Float64frombits(rng.Uint64() & (1<<52 - 1))
		}
		if !math.IsInf(x, 0) && x == x {
			return x
		}
	}
}

// TestAgainstBigFloat compares every function, on random arguments over
// its whole domain, with the reference computed with math/big
// (bigref_test.go), and checks the exact argument reduction of the
// trigonometric functions on its own.
func TestAgainstBigFloat(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 200))
	c := newChecker(t)
	unary := func(name string, f func(float64) float64, domain func(float64) float64, ref func(float64) float64) {
		props.Property(name+" is within 1 ulp of the correctly rounded value", prop.ForAll(func(seed int64) bool {
			x := domain(argument(seed))
			return c.check(name, []float64{x}, f(x), ref(x))
		}, gen.Int64()))
	}
	positive := math.Abs
	exponent := func(x float64) float64 { return math.Mod(x, 1100) }
	any := func(x float64) float64 { return x }
	unary("Log", Log, positive, func(x float64) float64 { return round(bigLog(x)) })
	unary("Log2", Log2, positive, func(x float64) float64 { return round(new(big.Float).Quo(bigLog(x), bigLn2())) })
	unary("Exp", Exp, exponent, func(x float64) float64 { return round(bigExp(bigFloat(x))) })
	unary("Exp2", Exp2, exponent, func(x float64) float64 {
		return round(bigExp(new(big.Float).SetPrec(bigPrec).Mul(bigFloat(x), bigLn2())))
	})
	unary("Sin", Sin, any, func(x float64) float64 { s, _ := bigSinCos(x); return round(s) })
	unary("Cos", Cos, any, func(x float64) float64 { _, c := bigSinCos(x); return round(c) })
	unary("Tan", Tan, any, func(x float64) float64 {
		s, c := bigSinCos(x)
		return round(s.Quo(s, c))
	})
	props.Property("Pow is within 1 ulp of the correctly rounded value", prop.ForAll(func(xSeed, ySeed int64) bool {
		x, y := math.Abs(argument(xSeed)), argument(ySeed)
		// y·ln x within the range of float64 results, or a little beyond
		l, _ := bigLog(x).Float64()
		if math.Abs(y*l) > 800 {
			y = math.Mod(y, 800/math.Abs(l))
		}
		p := new(big.Float).SetPrec(bigPrec).Mul(bigLog(x), bigFloat(y))
		return c.check("Pow", []float64{x, y}, Pow(x, y), round(bigExp(p)))
	}, gen.Int64(), gen.Int64()))
	props.Property("the reduced argument is within 2^-100 of the exact one", prop.ForAll(func(seed int64) bool {
		ready()
		x := math.Abs(argument(seed))
		r, q := reduce(x)
		want, wantQ := bigReduce(x)
		got := bigFloat(r.hi)
		diff := got.Add(got, bigFloat(r.lo)).Sub(got, want)
		if q != wantQ || diff.Sign() != 0 && diff.MantExp(nil) > want.MantExp(nil)-100 {
			t.Errorf("reducing %v: %v + %v (quadrant %d), want %v (quadrant %d)", x, r.hi, r.lo, q, want, wantQ)
			return false
		}
		return true
	}, gen.Int64()))
	props.TestingRun(t)
	c.log()
}

// TestReferenceMatchesVectors checks the math/big reference itself
// against the correctly rounded vectors.
func TestReferenceMatchesVectors(t *testing.T) {
	check := func(name string, args []float64, got, want float64) {
		t.Helper()
		if got != want {
			t.Errorf("reference %s%v = %v, want %v", name, args, got, want)
		}
	}
	for _, v := range logCases {
		check("log", v[:1], round(bigLog(v[0])), v[1])
	}
	for _, v := range log2Cases {
		check("log2", v[:1], round(new(big.Float).Quo(bigLog(v[0]), bigLn2())), v[1])
	}
	for _, v := range expCases {
		check("exp", v[:1], round(bigExp(bigFloat(v[0]))), v[1])
	}
	for _, v := range exp2Cases {
		check("exp2", v[:1], round(bigExp(new(big.Float).SetPrec(bigPrec).Mul(bigFloat(v[0]), bigLn2()))), v[1])
	}
	for _, v := range powCases {
		p := bigExp(new(big.Float).SetPrec(bigPrec).Mul(bigLog(math.Abs(v[0])), bigFloat(v[1])))
		if v[0] < 0 && isOddInteger(v[1]) {
			p.Neg(p)
		}
		check("pow", v[:2], round(p), v[2])
	}
	for _, v := range trigCases {
		s, c := bigSinCos(v[0])
		check("sin", v[:1], round(s), v[1])
		check("cos", v[:1], round(c), v[2])
		check("tan", v[:1], round(s.Quo(s, c)), v[3])
	}
}
