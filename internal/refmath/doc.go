// Package refmath computes, in float64, the transcendental functions that
// Go's math package gets several ulps, or far more, from the correctly
// rounded result: Log (of a subnormal), Log2 (near 1), Pow, Sin, Cos and
// Tan (of huge arguments), and Exp and Exp2 (near the overflow threshold,
// and for subnormal results). They are the reference the expression
// evaluator compares a GPU's results with, so they follow C's (and CUDA's)
// special cases over the whole domain: zeros of both signs, subnormals,
// infinities and NaNs.
//
// Each function computes its result in double-double arithmetic (a value
// as the unevaluated sum of two float64s, about 106 bits) to within about
// 2^-100 of the exact value and rounds it once: the result is the correctly
// rounded one unless the exact value lies that close to a midpoint between
// two float64s, and then one ulp from it. The trigonometric functions
// reduce their argument exactly, against 1344 bits of 2/π (Payne and
// Hanek's method); the constants are computed once with math/big (π from
// Machin's formula).
//
// Go's Log1p, Cbrt and Tanh are within one ulp of the correctly rounded
// result and stay the reference for those.
package refmath
