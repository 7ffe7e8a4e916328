package sorts_test

import (
	"math/rand/v2"
)

// keyDist draws n keys in [lo, lo+bins): a distribution of the tests and
// the timings.
type keyDist struct {
	name string
	keys func(r *rand.Rand, n int, lo uint32, bins int) []uint32
}

// zipfExponent is the exponent of skewed's Zipf law: value k (counted
// from lo) has probability proportional to (1+k)^-1.5, so the most common
// value holds about 38% of the keys, the next 14%, and the ten most common
// about 80%.
const zipfExponent = 1.5

// skewed gives keys by Zipf's law over the range (rand.Zipf with exponent
// zipfExponent): a few values hold most of the keys, hot keys that a
// histogram's atomics would serialise on.
func skewed(r *rand.Rand, n int, lo uint32, bins int) []uint32 {
	z := rand.NewZipf(r, zipfExponent, 1, uint64(bins-1))
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = lo + uint32(z.Uint64())
	}
	return keys
}

// fewDistinctValues is the number of values fewDistinct draws from.
const fewDistinctValues = 16

// fewDistinct gives keys drawn uniformly from fewDistinctValues values
// spread evenly over the range, its first and last included (fewer when
// the range is narrower).
func fewDistinct(r *rand.Rand, n int, lo uint32, bins int) []uint32 {
	values := min(fewDistinctValues, bins)
	keys := make([]uint32, n)
	for i := range keys {
		j := uint64(r.IntN(values))
		keys[i] = lo + uint32(j*uint64(bins-1)/uint64(max(values-1, 1)))
	}
	return keys
}

// hotDists are the distributions of hot keys and their uniform baseline.
var hotDists = []keyDist{{"skewed", skewed}, {"fewdistinct", fewDistinct}, {"equal", equal}, {"uniform", spread}}
