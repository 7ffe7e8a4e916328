package refmath

import (
	"math"
	"math/big"
)

// dd is the double-double hi + lo, normalised: hi is hi + lo rounded to
// float64.
type dd struct{ hi, lo float64 }

// twoSum returns a + b exactly (Knuth).
func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// fastTwoSum returns a + b exactly for |a| ≥ |b| (Dekker).
func fastTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

// twoProd returns a · b exactly (barring underflow).
func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

// add returns a + b within 2^-105·(|a| + |b|): relative to the sum where
// the operands do not nearly cancel, which the callers ensure, but for
// the division's remainder and the exponential's reduced argument, where
// this absolute bound is what they need.
func add(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	return fastTwoSum(s.hi, s.lo+(a.lo+b.lo))
}

func neg(a dd) dd { return dd{-a.hi, -a.lo} }

func mul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	return fastTwoSum(p.hi, p.lo+(a.hi*b.lo+a.lo*b.hi))
}

// mulF returns a · b for a float64 b.
func mulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	return fastTwoSum(p.hi, p.lo+a.lo*b)
}

func div(a, b dd) dd {
	q1 := a.hi / b.hi
	r := add(a, mulF(b, -q1))
	return fastTwoSum(q1, r.hi/b.hi)
}

// series is a power series Σ c[k]·z^k truncated where its terms fall below
// 2^-104 of the sum over the arguments it is used for.
type series struct {
	c []dd
	// the terms from split on are small enough that float64 arithmetic
	// keeps their rounding errors below 2^-104 of the sum
	split int
}

// at returns the series' value at z.
func (s series) at(z dd) dd {
	t := 0.0
	for k := len(s.c) - 1; k >= s.split; k-- {
		t = t*z.hi + s.c[k].hi
	}
	p := dd{t, 0}
	for k := s.split - 1; k >= 0; k-- {
		p = add(mul(p, z), s.c[k])
	}
	return p
}

// newSeries returns the series with coefficients coef(0), ..., coef(n-1).
func newSeries(n, split int, coef func(k int) *big.Rat) series {
	s := series{c: make([]dd, n), split: split}
	for k := range s.c {
		s.c[k] = ddOf(new(big.Float).SetPrec(200).SetRat(coef(k)))
	}
	return s
}

// ddOf returns f rounded to a double-double.
func ddOf(f *big.Float) dd {
	hi, _ := f.Float64()
	lo, _ := new(big.Float).Sub(f, big.NewFloat(hi)).Float64()
	return dd{hi, lo}
}

// scaleRound returns (a.hi + a.lo) · 2^k rounded to float64, once, also
// where the result is subnormal (a need not be normalised).
func scaleRound(a dd, k int) float64 {
	r := math.Ldexp(a.hi+a.lo, k)
	if math.Abs(r) >= 0x1p-1022 {
		return r // the scaling is exact, or overflows as the exact value does
	}
	f := new(big.Float).SetPrec(2200).SetFloat64(a.hi)
	f.Add(f, big.NewFloat(a.lo))
	r, _ = f.SetMantExp(f, k).Float64()
	return r
}
