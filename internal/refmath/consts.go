package refmath

import (
	"math/big"
	"sync"
)

// The constants, computed with math/big the first time a function needs
// them (ready).
var (
	// twoOverPi holds the bits of 2/π after the binary point, after a
	// word of zeros (the integer part and some padding), for exact
	// argument reduction at any float64 exponent.
	twoOverPi [twoOverPiWords + 2]uint64
	piOver2   dd // π/2
	ln2       dd // ln 2
	invLn2    dd // 1/ln 2

	logSeries series // log(m) = 2s·logSeries(s²) with s = (m-1)/(m+1)
	sinSeries series // sin(r) = r·sinSeries(r²)
	cosSeries series // cos(r) = cosSeries(r²)
	expSeries series // e^r - 1 = r·expSeries(r)
)

// twoOverPiWords is the number of 64-bit words of 2/π kept: reducing a
// float64 of exponent e needs 256 bits from bit e-1 on, and e ≤ 971.
const twoOverPiWords = 21

// ready computes the constants once; every exported function calls it
// first.
var ready = sync.OnceFunc(computeConstants)

func computeConstants() {
	const bits = 64*twoOverPiWords + 64 // with guard bits
	one := new(big.Int).Lsh(big.NewInt(1), bits)
	// Machin: π = 16·atan(1/5) - 4·atan(1/239), as a fixed-point number
	pi := new(big.Int).Sub(new(big.Int).Lsh(inverseSeries(5, true, bits), 4),
		new(big.Int).Lsh(inverseSeries(239, true, bits), 2))
	// floor(2/π · 2^(64·twoOverPiWords))
	t := new(big.Int).Quo(new(big.Int).Lsh(one, bits-64+1), pi)
	for i := range twoOverPiWords {
		twoOverPi[twoOverPiWords-i] = new(big.Int).Rsh(t, uint(64*i)).Uint64()
	}
	fixed := func(x *big.Int, scale uint) dd {
		return ddOf(new(big.Float).SetMantExp(new(big.Float).SetInt(x), -int(scale)))
	}
	piOver2 = fixed(pi, bits+1)
	// ln 2 = 2·atanh(1/3)
	l := new(big.Int).Lsh(inverseSeries(3, false, bits), 1)
	ln2 = fixed(l, bits)
	invLn2 = fixed(new(big.Int).Quo(new(big.Int).Lsh(one, bits), l), bits)

	rat := func(num int64, den *big.Int) *big.Rat { return new(big.Rat).SetFrac(big.NewInt(num), den) }
	factorial := func(n int) *big.Int { return new(big.Int).MulRange(1, int64(max(n, 1))) }
	alternating := func(k int) int64 { return 1 - 2*int64(k%2) }
	// |s| ≤ 3 - 2√2 < 0.172 for m in [√½, √2)
	logSeries = newSeries(21, 10, func(k int) *big.Rat { return rat(1, big.NewInt(int64(2*k+1))) })
	// |r| ≤ π/4
	sinSeries = newSeries(15, 9, func(k int) *big.Rat { return rat(alternating(k), factorial(2*k+1)) })
	cosSeries = newSeries(15, 9, func(k int) *big.Rat { return rat(alternating(k), factorial(2*k)) })
	// |r| ≤ ln2/2 / 2^expHalvings
	expSeries = newSeries(10, 5, func(k int) *big.Rat { return rat(1, factorial(k+1)) })
}

// inverseSeries returns atan(1/n) (alternating) or atanh(1/n) as a fixed-point
// number with the given bits after the point: Σ (±1)^k / ((2k+1)·n^(2k+1)).
func inverseSeries(n int64, alternating bool, bits uint) *big.Int {
	power := new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(n)) // 1/n^(2k+1)
	sum := new(big.Int).Set(power)
	n2, term := big.NewInt(n*n), new(big.Int)
	for k := int64(1); power.Sign() != 0; k++ {
		power.Quo(power, n2)
		term.Quo(power, big.NewInt(2*k+1))
		if alternating && k%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	return sum
}
