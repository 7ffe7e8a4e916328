package refmath

import "math"

// Log returns the natural logarithm of x, as C's log: -Inf for ±0, NaN for
// x < 0.
func Log(x float64) float64 {
	ready()
	if r, special := logSpecial(x); special {
		return r
	}
	return logDD(x).hi
}

// Log2 returns the base 2 logarithm of x, as C's log2: exact for powers of
// two, -Inf for ±0, NaN for x < 0.
func Log2(x float64) float64 {
	ready()
	if r, special := logSpecial(x); special {
		return r
	}
	m, e := split(x)
	return add(dd{float64(e), 0}, mul(logNear1(m), invLn2)).hi
}

// logSpecial returns the logarithm of x where x is not a positive finite
// number.
func logSpecial(x float64) (float64, bool) {
	switch {
	case x == 0:
		return math.Inf(-1), true
	case x < 0 || x != x:
		return math.NaN(), true
	case math.IsInf(x, 1):
		return x, true
	}
	return 0, false
}

// split returns m in [√½, √2) and e with x = m·2^e, for positive finite x.
func split(x float64) (float64, int) {
	m, e := math.Frexp(x) // m in [½, 1), subnormal x normalised
	if m < math.Sqrt2/2 {
		return 2 * m, e - 1
	}
	return m, e
}

// logDD returns ln x for positive finite x.
func logDD(x float64) dd {
	m, e := split(x)
	return add(mulF(ln2, float64(e)), logNear1(m))
}

// logNear1 returns ln m for m in [√½, √2): 2·atanh(s) with s = (m-1)/(m+1),
// where m - 1 is exact.
func logNear1(m float64) dd {
	s := div(dd{m - 1, 0}, twoSum(m, 1))
	p := logSeries.at(mul(s, s))
	return mul(dd{2 * s.hi, 2 * s.lo}, p)
}

// Exp returns e to the power x: +Inf for x > ln(MaxFloat64), the
// subnormals below, 0 for -Inf.
func Exp(x float64) float64 {
	ready()
	if x != x {
		return x
	}
	return expRound(dd{x, 0})
}

// Exp2 returns 2 to the power x, exact for integers.
func Exp2(x float64) float64 {
	ready()
	switch {
	case x != x:
		return x
	case math.Abs(x) > 2000: // overflows or underflows, as e^x does
		return expRound(dd{x, 0})
	case x == math.Trunc(x): // exact, rounding 2^-1075 to even
		return math.Ldexp(1, int(x))
	}
	return expRound(mulF(ln2, x))
}

// expHalvings is how many times the exponential's reduced argument is
// halved before its series, and the result squared after.
const expHalvings = 8

// expRound returns e^a rounded to float64.
func expRound(a dd) float64 {
	switch {
	case a.hi > 710: // e^710 > MaxFloat64
		return math.Inf(1)
	case a.hi < -746: // e^-746 < SmallestNonzeroFloat64 / 2
		return 0
	}
	// a = k·ln2 + r with |r| ≤ ln2/2; e^r = 1 + u
	k := math.Round(a.hi / ln2.hi)
	r := add(a, mulF(ln2, -k))
	r = dd{math.Ldexp(r.hi, -expHalvings), math.Ldexp(r.lo, -expHalvings)}
	u := mul(r, expSeries.at(r))
	for range expHalvings { // e^2r - 1 = 2u + u²
		u = add(dd{2 * u.hi, 2 * u.lo}, mul(u, u))
	}
	// 1 + u with its tail rounded to odd, so that the result rounds once
	// (Boldo and Melquiond): a power near a midpoint between floats still
	// rounds the right way
	s := twoSum(1, u.hi)
	return scaleRound(dd{s.hi, roundToOdd(s.lo, u.lo)}, int(k))
}

// roundToOdd returns a + b rounded to the float64 with an odd last bit
// where it is inexact.
func roundToOdd(a, b float64) float64 {
	s := twoSum(a, b)
	if s.lo != 0 && math.Float64bits(s.hi)&1 == 0 {
		return math.Nextafter(s.hi, math.Copysign(math.Inf(1), s.lo))
	}
	return s.hi
}

// Pow returns x to the power y, with C's special cases: pow(x, ±0) = 1 and
// pow(1, y) = 1 for every x and y (NaN included); pow(-1, ±Inf) = 1;
// pow(±0, y) is ±Inf for a negative odd integer y, +Inf for other negative
// y, ±0 for a positive odd integer y and +0 for other positive y; a
// negative finite x to a finite non-integer power is NaN; pow(-Inf, y) =
// pow(-0, -y); |x| < 1 to the power -Inf (or |x| > 1 to the power +Inf) is
// +Inf, and the other way round +0.
func Pow(x, y float64) float64 {
	ready()
	switch {
	case y == 0 || x == 1:
		return 1
	case x != x || y != y:
		return math.NaN()
	case math.IsInf(y, 0):
		switch ax := math.Abs(x); {
		case ax == 1:
			return 1
		case (ax < 1) == (y > 0):
			return 0
		}
		return math.Inf(1)
	case x == 0:
		odd := isOddInteger(y)
		switch {
		case y < 0 && odd:
			return math.Copysign(math.Inf(1), x)
		case y < 0:
			return math.Inf(1)
		case odd:
			return x
		}
		return 0
	case math.IsInf(x, 0):
		return Pow(1/x, -y)
	}
	sign := 1.0
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN()
		}
		if isOddInteger(y) {
			sign = -1
		}
		x = -x
	}
	l := logDD(x)
	if t := y * l.hi; math.Abs(t) > 1000 { // far beyond the range of float64, or infinite
		return sign * expRound(dd{t, 0})
	}
	return sign * expRound(mulF(l, y))
}

// isOddInteger reports whether y is an odd integer.
func isOddInteger(y float64) bool {
	return math.Abs(y) < 1<<53 && y == math.Trunc(y) && int64(y)%2 != 0
}
