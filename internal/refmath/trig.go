package refmath

import (
	"math"
	"math/bits"
)

// Sin returns the sine of x: ±0 for ±0, NaN for an infinity or NaN.
func Sin(x float64) float64 {
	ready()
	return trig(x, sinShifted, true)
}

// Cos returns the cosine of x: NaN for an infinity or NaN.
func Cos(x float64) float64 {
	ready()
	return trig(x, func(r dd, q int) dd { return sinShifted(r, q+1) }, false)
}

// Tan returns the tangent of x: ±0 for ±0, NaN for an infinity or NaN.
func Tan(x float64) float64 {
	ready()
	return trig(x, func(r dd, q int) dd {
		s, c := sinDD(r), cosDD(r)
		if q%2 == 1 {
			return neg(div(c, s))
		}
		return div(s, c)
	}, true)
}

// trig returns f(r, q) for |x| = r + q·π/2 (|r| ≤ π/4), negated for
// negative x where the function is odd.
func trig(x float64, f func(r dd, q int) dd, odd bool) float64 {
	switch {
	case x == 0 && odd:
		return x
	case math.IsInf(x, 0) || x != x:
		return math.NaN()
	}
	r, q := reduce(math.Abs(x))
	v := f(r, q).hi
	if odd && x < 0 {
		return -v
	}
	return v
}

// sinShifted returns sin(r + q·π/2).
func sinShifted(r dd, q int) dd {
	switch q % 4 {
	case 0:
		return sinDD(r)
	case 1:
		return cosDD(r)
	case 2:
		return neg(sinDD(r))
	}
	return neg(cosDD(r))
}

// sinDD and cosDD return the sine and cosine of r for |r| ≤ π/4.
func sinDD(r dd) dd { return mul(r, sinSeries.at(mul(r, r))) }
func cosDD(r dd) dd { return cosSeries.at(mul(r, r)) }

// reduce returns r with |r| ≤ π/4 and q in [0, 3] such that x = r + q·π/2
// modulo 2π, for finite x ≥ 0, r within 2^-105 of its magnitude (Payne and
// Hanek's reduction: the product of x's integer significand with 256 bits
// of 2/π, whose error is below 2^-200, while no float64 is closer than
// 2^-62 to a multiple of π/2).
func reduce(x float64) (dd, int) {
	if x <= math.Pi/4 {
		return dd{x, 0}, 0
	}
	// x = m·2^e, e ≥ -53. Bits of 2/π more than e-1 places after the point
	// contribute multiples of 4 to x·2/π; the window w holds the 256 bits
	// from there, so that x·2/π ≡ m·w·2^-254 (mod 4), but for the bits left
	// out, below 2^-200.
	b := math.Float64bits(x)
	m, e := b&(1<<52-1)|1<<52, int(b>>52)-1075
	var w [4]uint64
	start := e - 1 + 63 // twoOverPi starts with a word of zeros
	word, shift := start/64, uint(start%64)
	for i := range w {
		w[i] = twoOverPi[word+i]<<shift | twoOverPi[word+i+1]>>(64-shift)
	}
	// p = m·w, 320 bits, most significant word first; bits 254 and 255
	// are the quadrant, the 254 below the fraction
	var p [5]uint64
	for i := 3; i >= 0; i-- {
		hi, lo := bits.Mul64(w[i], m)
		var c uint64
		p[i+1], c = bits.Add64(lo, p[i+1], 0)
		p[i] = hi + c
	}
	q := int(p[1] >> 62)
	f := [4]uint64{p[1] & (1<<62 - 1), p[2], p[3], p[4]}
	sign := 1.0
	if f[0]>>61 != 0 { // a fraction of a half or more: r is negative, q one more
		q, sign = (q+1)%4, -1
		var borrow uint64
		for i := 3; i >= 0; i-- {
			f[i], borrow = bits.Sub64(0, f[i], borrow)
		}
		f[0] &= 1<<62 - 1
	}
	// the fraction f·2^-254 as a double-double: the 106 bits from its
	// highest bit set
	exp := -254
	for f[0] == 0 {
		if f == [4]uint64{} {
			return dd{}, q
		}
		f, exp = [4]uint64{f[1], f[2], f[3], 0}, exp-64
	}
	lz := uint(bits.LeadingZeros64(f[0]))
	top, next := f[0]<<lz|f[1]>>(64-lz), f[1]<<lz|f[2]>>(64-lz)
	exp -= int(lz)
	frac := fastTwoSum(math.Ldexp(float64(top>>11), exp+192+11),
		math.Ldexp(float64((top&(1<<11-1))<<42|next>>22), exp+128+22))
	return mul(dd{sign * frac.hi, sign * frac.lo}, piOver2), q
}
