// Package half defines the 16-bit floating-point storage types of the DSL,
// IEEE binary16 (Float16) and bfloat16 (BFloat16), as Go types that hold
// their bits, with conversions to and from float32 that round to nearest,
// ties to even, as CUDA's cvt.rn instructions do. A NaN converts to a NaN,
// its payload kept where it fits; CUDA's conversions return a canonical NaN
// instead, so a NaN's bits may differ between the CPU device and a GPU.
//
// They are storage types: kernels load, store and convert them, and compute
// in float32.
package half

import "math"

// Float16 is an IEEE 754 binary16 value: 1 sign bit, 5 exponent bits, 10
// fraction bits.
type Float16 uint16

// BFloat16 is a bfloat16 value: the upper half of a float32 (1 sign bit, 8
// exponent bits, 7 fraction bits).
type BFloat16 uint16

// Float32 returns f as a float32, exactly.
func (f Float16) Float32() float32 {
	sign := uint32(f>>15) << 31
	exp := uint32(f>>10) & 0x1f
	frac := uint32(f) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN, the fraction kept
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
	case frac == 0:
		return math.Float32frombits(sign)
	}
	// subnormal: frac·2^-24, exact in float32
	v := float32(frac) * 0x1p-24
	if sign != 0 {
		v = -v
	}
	return v
}

// Float16From returns the Float16 nearest x, ties to even; values beyond
// the largest finite one (65504) round to infinity, and NaNs stay NaNs
// (quiet, with the high fraction bits of x).
func Float16From(x float32) Float16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	frac := b & 0x7fffff
	if exp == 0xff {
		if frac == 0 {
			return Float16(sign | 0x7c00)
		}
		return Float16(sign | 0x7e00 | uint16(frac>>13))
	}
	// x = m·2^(e-23) with m the 24-bit significand (subnormal floats have
	// exponent -126 and no implicit bit)
	m, e := frac|1<<23, exp-127
	if exp == 0 {
		m, e = frac, -126
	}
	// The result has 10 fraction bits above 2^-14 and is subnormal below:
	// keep the bits of m down to 2^max(e-10, -24).
	shift := 13 // the bits of m below the half's last fraction bit
	if e < -14 {
		shift += -14 - e
	}
	if shift > 25 {
		return Float16(sign) // below half the smallest subnormal
	}
	r := roundShift(m, uint(shift))
	// r counts units of the half's last place at exponent max(e, -14).
	if e < -14 {
		return Float16(sign | uint16(r)) // subnormal, or the smallest normal after rounding up
	}
	h := uint32(e+15)<<10 + r - 1<<10 // r includes the implicit bit; a carry raises the exponent
	if h >= 0x7c00 {
		return Float16(sign | 0x7c00)
	}
	return Float16(sign | uint16(h))
}

// Float32 returns f as a float32, exactly.
func (f BFloat16) Float32() float32 { return math.Float32frombits(uint32(f) << 16) }

// BFloat16From returns the BFloat16 nearest x, ties to even; NaNs stay
// NaNs (quiet, with the high fraction bits of x).
func BFloat16From(x float32) BFloat16 {
	b := math.Float32bits(x)
	if b&0x7fffffff > 0x7f800000 {
		return BFloat16(b>>16 | 0x40)
	}
	return BFloat16(roundShift(b, 16)) // a carry into the exponent is the right result, up to infinity
}

// roundShift returns m / 2^shift rounded to nearest, ties to even.
func roundShift(m uint32, shift uint) uint32 {
	if shift == 0 {
		return m
	}
	q, rest := m>>shift, m&(1<<shift-1)
	half := uint32(1) << (shift - 1)
	if rest > half || (rest == half && q&1 == 1) {
		q++
	}
	return q
}
