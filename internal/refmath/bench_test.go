package refmath

import "testing"

var sink float64

// BenchmarkFunctions measures each function at an ordinary argument and,
// for the sine, at a huge one.
func BenchmarkFunctions(b *testing.B) {
	for _, c := range []struct {
		name string
		f    func(float64) float64
		x    float64
	}{
		{"Log", Log, 123.456}, {"Log2", Log2, 0.7}, {"Exp", Exp, 3.3}, {"Exp2", Exp2, -10.7},
		{"Sin", Sin, 0.5}, {"SinHuge", Sin, 1e300}, {"Cos", Cos, 12345.6}, {"Tan", Tan, 1e10},
		{"Pow", func(x float64) float64 { return Pow(x, 1.37) }, 12.5},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				sink += c.f(c.x)
			}
		})
	}
}
