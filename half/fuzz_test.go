package half

import (
	"math"
	"testing"
)

// FuzzFloat16From checks, for any float32, that Float16From gives one of
// the two halves around it, the nearer one (ties to even), and a NaN for a
// NaN.
func FuzzFloat16From(f *testing.F) {
	for _, b := range []uint32{0, 0x80000000, 0x3f800000, 0x477fe000, 0x477ff000, 0x33000000, 0x33000001,
		0x387fc000, 0x7f800000, 0x7fc00001, 0xff800000} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b uint32) {
		x := math.Float32frombits(b)
		h := Float16From(x)
		if math.IsNaN(float64(x)) {
			if !math.IsNaN(float64(h.Float32())) {
				t.Fatalf("Float16From(NaN %#x) = %#04x", b, h)
			}
			return
		}
		got := float64(h.Float32())
		xf := float64(x)
		if math.Signbit(got) != math.Signbit(xf) {
			t.Fatalf("Float16From(%g) = %g: the sign changed", x, got)
		}
		if math.IsInf(got, 0) {
			if math.Abs(xf) < 65520 {
				t.Fatalf("Float16From(%g) overflows", x)
			}
			return
		}
		// neighbours of the result: no representable half is nearer x
		for _, n := range []Float16{h - 1, h + 1} {
			if n&0x7c00 == 0x7c00 || (n^h)&0x8000 != 0 {
				continue
			}
			d, dn := math.Abs(got-xf), math.Abs(float64(n.Float32())-xf)
			if dn < d || (dn == d && n&1 == 0) {
				t.Fatalf("Float16From(%g) = %#04x, but %#04x is nearer", x, h, n)
			}
		}
	})
}

// FuzzBFloat16From checks, for any float32, that BFloat16From keeps the
// upper 16 bits or the next value, the nearer one (ties to even).
func FuzzBFloat16From(f *testing.F) {
	for _, b := range []uint32{0, 0x3f808000, 0x3f818000, 0x7f7fffff, 0x7fc00001, 0x00008000} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b uint32) {
		x := math.Float32frombits(b)
		h := uint32(BFloat16From(x))
		if math.IsNaN(float64(x)) {
			if !math.IsNaN(float64(BFloat16(h).Float32())) {
				t.Fatalf("BFloat16From(NaN %#x) = %#04x", b, h)
			}
			return
		}
		rest := b & 0xffff
		want := b >> 16
		if rest > 0x8000 || rest == 0x8000 && want&1 == 1 {
			want++
		}
		if h != want {
			t.Fatalf("BFloat16From(%#x) = %#04x, want %#04x", b, h, want)
		}
	})
}
