package refmath

import (
	"math"
	"math/big"
	"sync"
)

// An independent reference: the functions evaluated with math/big at
// bigPrec bits by their Taylor series, far beyond what rounding to float64
// needs, and rounded once (big.Float.Float64 rounds to nearest even,
// subnormals included).

// bigPrec is the precision of the reference's arithmetic.
const bigPrec = 400

func bigFloat(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

// bigPi is π to 1600 bits, from the Gauss–Legendre iteration (not the
// package's Machin series): enough to reduce any float64 exactly.
var bigPi = sync.OnceValue(func() *big.Float {
	const prec = 1600
	n := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	a, b, t, p := n(1), n(0).Sqrt(n(0.5)), n(0.25), n(1)
	for range 12 {
		next := n(0).Add(a, b)
		next.Quo(next, n(2))
		b.Sqrt(n(0).Mul(a, b))
		d := n(0).Sub(a, next)
		t.Sub(t, d.Mul(d, d).Mul(d, p))
		a = next
		p.Mul(p, n(2))
	}
	s := n(0).Add(a, b)
	return s.Mul(s, s).Quo(s, t.Mul(t, n(4)))
})

// bigSeries returns Σ term(k) for k from 0 until the terms fall below
// 2^-bigPrec of the first.
func bigSeries(term func(k int, previous *big.Float) *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(bigPrec)
	var previous *big.Float
	for k := 0; ; k++ {
		t := term(k, previous)
		if t.Sign() == 0 || k > 0 && t.MantExp(nil) < sum.MantExp(nil)-bigPrec-8 {
			return sum
		}
		sum.Add(sum, t)
		previous = t
	}
}

// bigAtanh returns atanh(s) = Σ s^(2k+1)/(2k+1) for |s| < 1/2.
func bigAtanh(s *big.Float) *big.Float {
	s2 := new(big.Float).SetPrec(bigPrec).Mul(s, s)
	power := new(big.Float).SetPrec(bigPrec).Set(s)
	return bigSeries(func(k int, _ *big.Float) *big.Float {
		if k > 0 {
			power.Mul(power, s2)
		}
		return new(big.Float).SetPrec(bigPrec).Quo(power, bigFloat(float64(2*k+1)))
	})
}

// bigLn2 is ln 2 = 2·atanh(1/3).
var bigLn2 = sync.OnceValue(func() *big.Float {
	third := new(big.Float).SetPrec(bigPrec).Quo(bigFloat(1), bigFloat(3))
	return new(big.Float).SetPrec(bigPrec).Mul(bigAtanh(third), bigFloat(2))
})

// bigLog returns ln x for positive finite x: e·ln 2 + 2·atanh((m-1)/(m+1)).
func bigLog(x float64) *big.Float {
	m, e := math.Frexp(x)
	one := bigFloat(1)
	s := new(big.Float).SetPrec(bigPrec).Quo(bigFloat(m).Sub(bigFloat(m), one), bigFloat(m).Add(bigFloat(m), one))
	l := new(big.Float).SetPrec(bigPrec).Mul(bigAtanh(s), bigFloat(2))
	return l.Add(l, new(big.Float).SetPrec(bigPrec).Mul(bigLn2(), bigFloat(float64(e))))
}

// bigExp returns e^a for |a| < 2000: 2^k·e^r with r = a - k·ln 2.
func bigExp(a *big.Float) *big.Float {
	q, _ := new(big.Float).Quo(a, bigLn2()).Float64()
	k := math.Round(q)
	r := new(big.Float).SetPrec(bigPrec).Sub(a, new(big.Float).SetPrec(bigPrec).Mul(bigLn2(), bigFloat(k)))
	sum := bigSeries(func(n int, previous *big.Float) *big.Float {
		if n == 0 {
			return bigFloat(1)
		}
		t := new(big.Float).SetPrec(bigPrec).Mul(previous, r)
		return t.Quo(t, bigFloat(float64(n)))
	})
	return sum.SetMantExp(sum, int(k))
}

// bigReduce returns r and q in [0, 3] with x = r + (4n + q)·π/2 for an
// integer n and |r| ≤ π/4, r to bigPrec bits.
func bigReduce(x float64) (*big.Float, int) {
	const prec = 1600
	halfPi := new(big.Float).SetPrec(prec).Quo(bigPi(), new(big.Float).SetFloat64(2))
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	q := new(big.Float).SetPrec(prec).Quo(bx, halfPi)
	q.Add(q, new(big.Float).SetFloat64(0.5))
	k, _ := q.Int(nil)
	if q.Sign() < 0 && !q.IsInt() {
		k.Sub(k, big.NewInt(1)) // floor
	}
	r := bx.Sub(bx, halfPi.Mul(halfPi, new(big.Float).SetPrec(prec).SetInt(k)))
	return r.SetPrec(bigPrec), int(new(big.Int).And(k, big.NewInt(3)).Int64())
}

// bigSinCos returns the sine and cosine of x.
func bigSinCos(x float64) (sin, cos *big.Float) {
	r, q := bigReduce(x)
	r2 := new(big.Float).SetPrec(bigPrec).Mul(r, r)
	taylor := func(first *big.Float, offset int) *big.Float { // Σ (-1)^n r^(2n+offset)/(2n+offset)!
		return bigSeries(func(n int, previous *big.Float) *big.Float {
			if n == 0 {
				return first
			}
			t := new(big.Float).SetPrec(bigPrec).Mul(previous, r2)
			t.Quo(t, bigFloat(float64((2*n+offset-1)*(2*n+offset))))
			return t.Neg(t)
		})
	}
	s, c := taylor(r, 1), taylor(bigFloat(1), 0)
	switch q {
	case 1:
		s, c = c, s.Neg(s)
	case 2:
		s, c = s.Neg(s), c.Neg(c)
	case 3:
		s, c = c.Neg(c), s
	}
	return s, c
}

// round returns f rounded to the nearest float64.
func round(f *big.Float) float64 {
	r, _ := f.Float64()
	return r
}
