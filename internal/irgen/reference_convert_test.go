package irgen_test

import (
	"math"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// TestReferenceWidensExactly checks the reference's exact conversions to
// float32, from float16, from bfloat16 and from float32 itself: every bit
// pattern of the 16-bit types and float32 NaNs of both kinds convert to the
// very bits of the wider value, a signalling NaN staying signalling with
// its payload, as ir.Conversion and so the evaluator define them.
func TestReferenceWidensExactly(t *testing.T) {
	var from []ir.Value
	for b := uint64(0); b < 1<<16; b++ {
		from = append(from, ir.Value{T: ir.Float16, Bits: b}, ir.Value{T: ir.BFloat16, Bits: b})
	}
	for _, b := range []uint64{0x7f800001, 0xff800001, 0x7fa00000, 0x7fbfffff, 0x7fc00000, 0xffc00001,
		0x7f800000, 0x80000000, 0x00000001, 0x3f800000} {
		from = append(from, ir.Value{T: ir.Float32, Bits: b})
	}
	for _, v := range from {
		want := widened(v)
		e := &ir.Unary{Op: ir.FloatBits, X: &ir.Convert{To: ir.Float32, X: &ir.Const{Value: v}}}
		got, fault := interpret(e)
		if fault != "" || got != want {
			t.Fatalf("reference FloatBits(float32(%v bits %#x)) = %#x (fault %q), want %#x",
				v.T, v.Bits, got, fault, want)
		}
	}
}

// widened returns the bits of v as a float32, written out from the formats:
// a float32 keeps its bits, a bfloat16 is the upper half of a float32, and
// a float16 keeps its sign and fraction with the exponent rebiased (an
// infinity or NaN keeping its fraction, a subnormal normalised).
func widened(v ir.Value) uint32 {
	b := uint32(v.Bits)
	switch v.T {
	case ir.Float32:
		return b
	case ir.BFloat16:
		return b << 16
	}
	sign, exp, frac := b>>15<<31, b>>10&0x1f, b&0x3ff
	switch {
	case exp == 0x1f:
		return sign | 0xff<<23 | frac<<13
	case exp == 0 && frac == 0:
		return sign
	case exp == 0:
		return sign | math.Float32bits(float32(frac)*0x1p-24)
	}
	return sign | (exp+112)<<23 | frac<<13
}
