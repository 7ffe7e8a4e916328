package half

import (
	"math"
	"testing"

	"github.com/obsidian-go/obsidian/internal/proptest"
)

// nearest returns the value of the format (given by its values in order)
// nearest x, ties to the one whose bits are even.
func nearestRef(x float64, candidates []float64, bits []uint16) uint16 {
	best := 0
	for i, c := range candidates {
		d, bd := math.Abs(c-x), math.Abs(candidates[best]-x)
		if d < bd || (d == bd && bits[i]&1 == 0) {
			best = i
		}
	}
	return bits[best]
}

// TestFloat16RoundTrip checks every Float16: it converts to float32 and
// back to itself (NaNs to a NaN).
func TestFloat16RoundTrip(t *testing.T) {
	for b := range 1 << 16 {
		h := Float16(b)
		f := h.Float32()
		back := Float16From(f)
		nan := b&0x7c00 == 0x7c00 && b&0x3ff != 0
		if nan {
			if !math.IsNaN(float64(f)) || back&0x7c00 != 0x7c00 || back&0x3ff == 0 {
				t.Fatalf("NaN %#04x: %v, back %#04x", b, f, back)
			}
			continue
		}
		if back != h {
			t.Fatalf("%#04x → %v → %#04x", b, f, back)
		}
	}
}

// TestFloat16RoundsToNearestEven compares Float16From with the nearest
// Float16 found by search, on every float32 between two neighbouring
// halves' midpoints for a sample of halves and on random floats.
func TestFloat16RoundsToNearestEven(t *testing.T) {
	rng := proptest.Parameters(t, 1).Rng
	value := func(h uint16) float64 { return float64(Float16(h).Float32()) }
	check := func(x float32) {
		if math.IsNaN(float64(x)) {
			return
		}
		got := Float16From(x)
		xf := float64(x)
		if math.Abs(xf) >= 65520 { // at or past the midpoint of 65504 and 2^16
			want := Float16(0x7c00)
			if x < 0 {
				want |= 0x8000
			}
			if got != want {
				t.Fatalf("Float16From(%g) = %#04x, want infinity", x, got)
			}
			return
		}
		// the two halves around x
		lo := uint16(0)
		for c := uint16(0); c < 0x7c00; c++ {
			if value(c) <= math.Abs(xf) {
				lo = c
			}
		}
		cands := []float64{value(lo), value(lo + 1)}
		bits := []uint16{lo, lo + 1}
		want := nearestRef(math.Abs(xf), cands, bits)
		if x < 0 || (x == 0 && math.Signbit(xf)) {
			want |= 0x8000
		}
		if uint16(got) != want {
			t.Fatalf("Float16From(%g) = %#04x, want %#04x", x, got, want)
		}
	}
	for _, x := range []float32{0, float32(math.Copysign(0, -1)), 1, 65504, 65519.99, 0x1p-24, 0x1p-25,
		0x1.8p-25, 0x1p-26, 0x1.ffcp-15, 0x1.ffep-15, 1 + 0x1p-11, 1 + 0x3p-11, -3.14159} {
		check(x)
	}
	for range 300 {
		check(float32(rng.NormFloat64() * math.Pow(2, float64(rng.Intn(40)-25))))
	}
}

// TestBFloat16 checks bfloat16 rounding on random float32 bit patterns
// (subnormals, infinities and NaNs included) against the nearer of the two
// bfloat16 values around each.
func TestBFloat16(t *testing.T) {
	rng := proptest.Parameters(t, 1).Rng
	value := func(h uint16) float64 {
		if h == 0x7f80 {
			return 0x1p128 // the next value after the largest, for rounding
		}
		return float64(BFloat16(h).Float32())
	}
	for range 100000 {
		b := rng.Uint32()
		x := math.Float32frombits(b)
		got := BFloat16From(x)
		if math.IsNaN(float64(x)) {
			if !math.IsNaN(float64(got.Float32())) {
				t.Fatalf("BFloat16From(NaN %#x) = %#04x", b, got)
			}
			continue
		}
		lo := uint16(b>>16) & 0x7fff
		want := uint16(0x7f80)
		if lo < 0x7f80 {
			want = nearestRef(math.Abs(float64(x)), []float64{value(lo), value(lo + 1)}, []uint16{lo, lo + 1})
		}
		want |= uint16(b>>16) & 0x8000
		if uint16(got) != want {
			t.Fatalf("BFloat16From(%g, %#x) = %#04x, want %#04x", x, b, got, want)
		}
	}
	if BFloat16From(float32(math.Inf(-1))) != 0xff80 || BFloat16From(1) != 0x3f80 {
		t.Error("bfloat16 of -Inf or 1")
	}
}
