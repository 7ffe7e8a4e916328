package main

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// splitMix64 is the key generator the CUB baseline uses, so that both
// programs sort the very same keys.
type splitMix64 struct{ state uint64 }

// next advances the generator and returns its next 64 random bits.
func (r *splitMix64) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// high32 returns the top 32 bits of the generator's next output.
func (r *splitMix64) high32() uint32 { return uint32(r.next() >> 32) }

// key is the type of the keys a distribution makes and a method sorts.
type key interface{ uint32 | uint64 | float32 }

// keyType describes the keys of type K: their name in the charts and the
// value an output is filled with before a checked run (one no correct
// sort writes where it is not a key: NaN for floats, which equals
// nothing).
type keyType[K key] struct {
	name   string
	poison K
}

// The key types of the benchmark.
var (
	uint32Keys  = keyType[uint32]{name: "uint32", poison: math.MaxUint32}
	uint64Keys  = keyType[uint64]{name: "uint64", poison: math.MaxUint64}
	float32Keys = keyType[float32]{name: "float32", poison: float32(math.NaN())}
)

// span is the key range a distribution declares: every key k has
// lo <= k <= max. Sorts told a range get [lo, max+1); a radix sort told
// the range's bits gets bits [0, bits()).
type span struct{ lo, max uint64 }

// bits returns the bit length of the span's largest key, at least 1.
func (s span) bits() int { return max(1, bits.Len64(s.max)) }

// width returns how many values the span holds, saturated at 2^64-1.
func (s span) width() uint64 {
	if s.max-s.lo == math.MaxUint64 {
		return math.MaxUint64
	}
	return s.max - s.lo + 1
}

// distribution is one key distribution of the benchmark. Its keys have one
// type; measure times on them every method of that type that accepts
// them.
type distribution interface {
	// label is the distribution's name in the CSV and the charts.
	label() string
	// keyType is the name of its keys' type.
	keyType() string
	// measure times, on n keys, the methods of b that sort its key type
	// and accept its span, and returns their rows (none when no method
	// does).
	measure(b *bench, n int) ([]row, error)
}

// dist is a distribution of keys of type K.
type dist[K key] struct {
	name string
	typ  *keyType[K]
	// gen returns n keys from rng, a generator in its seeded state.
	gen func(n int, rng *splitMix64) []K
	// span returns the range of n keys from rng, a generator in its
	// seeded state; nil for float keys, which have no integer range.
	span func(n int, rng *splitMix64) span
	// distinct says that no two keys are equal.
	distinct bool
}

// label implements distribution.
func (d *dist[K]) label() string { return d.name }

// keyType implements distribution.
func (d *dist[K]) keyType() string { return d.typ.name }

// keys returns n keys of the distribution from a generator seeded with
// seed, exactly as the baseline makes them.
func (d *dist[K]) keys(n int, seed uint64) []K {
	return d.gen(n, &splitMix64{state: seed})
}

// spanOf returns the declared range of n keys made from seed, and false
// when the distribution has none.
func (d *dist[K]) spanOf(n int, seed uint64) (span, bool) {
	if d.span == nil {
		return span{}, false
	}
	return d.span(n, &splitMix64{state: seed}), true
}

// fill returns n keys each made by one call of f.
func fill[K key](n int, f func(i int) K) []K {
	keys := make([]K, n)
	for i := range keys {
		keys[i] = f(i)
	}
	return keys
}

// fixedSpan returns a span function giving s whatever n and the seed.
func fixedSpan(s span) func(int, *splitMix64) span {
	return func(int, *splitMix64) span { return s }
}

// indexSpan is the span of keys that are the indices 0 ... n-1.
func indexSpan(n int, _ *splitMix64) span { return span{0, uint64(max(n, 1) - 1)} }

// uniform returns Tx: uint32 keys uniform in [0, 2^x), the top x bits of
// each generator output; x = 32 is every uint32.
func uniform(x int) *dist[uint32] {
	return &dist[uint32]{
		name: "T" + strconv.Itoa(x),
		typ:  &uint32Keys,
		gen: func(n int, rng *splitMix64) []uint32 {
			return fill(n, func(int) uint32 { return uint32(rng.next() >> (64 - x)) })
		},
		span: fixedSpan(span{0, 1<<x - 1}),
	}
}

// skewedKey returns floor(2^32 × u^8) for u = v / 2^32, computed in fixed
// point with 32 fraction bits, each of the three squarings truncated:
// a power law in which a key below 2^32 × t has probability about t^(1/8)
// (a quarter of the keys are below 2^16, one in sixteen is 0).
func skewedKey(v uint32) uint32 {
	u := uint64(v)
	for range 3 {
		u = u * u >> 32
	}
	return uint32(u)
}

// fewValues is how many distinct values the few distribution draws.
const fewValues = 16

// fewTable draws the few distribution's values: the top 32 bits of the
// generator's first fewValues outputs.
func fewTable(rng *splitMix64) []uint32 {
	return fill(fewValues, func(int) uint32 { return rng.high32() })
}

// float32Key returns a float32 uniform in [-1, 1) on the grid of 2^-23
// from the top 24 bits of r: exact in float32, so the same in every
// language.
func float32Key(r uint64) float32 {
	return float32(int32(r>>40)-1<<23) * (1.0 / (1 << 23))
}

// permute shuffles keys with Fisher–Yates: for i = n-1 down to 1, swap
// keys[i] with keys[next() % (i+1)].
func permute[K key](keys []K, rng *splitMix64) []K {
	for i := len(keys) - 1; i >= 1; i-- {
		j := rng.next() % uint64(i+1)
		keys[i], keys[j] = keys[j], keys[i]
	}
	return keys
}

// Bounds of the Tx distributions.
const (
	minBits = 4
	maxBits = 24
)

// otherDistributions returns the distributions after T4 ... T24, in the
// order of the charts' x axis; bench/cub/baseline.cu makes the same keys.
func otherDistributions() []distribution {
	return []distribution{
		uniform(32),
		&dist[uint64]{
			name: "U64",
			typ:  &uint64Keys,
			gen:  func(n int, rng *splitMix64) []uint64 { return fill(n, func(int) uint64 { return rng.next() }) },
			span: fixedSpan(span{0, math.MaxUint64}),
		},
		&dist[float32]{
			name: "F32",
			typ:  &float32Keys,
			gen: func(n int, rng *splitMix64) []float32 {
				return fill(n, func(int) float32 { return float32Key(rng.next()) })
			},
		},
		&dist[uint32]{
			name: "skewed",
			typ:  &uint32Keys,
			gen: func(n int, rng *splitMix64) []uint32 {
				return fill(n, func(int) uint32 { return skewedKey(rng.high32()) })
			},
			span: fixedSpan(span{0, math.MaxUint32}),
		},
		&dist[uint32]{
			name: "few16",
			typ:  &uint32Keys,
			gen: func(n int, rng *splitMix64) []uint32 {
				table := fewTable(rng)
				return fill(n, func(int) uint32 { return table[rng.next()>>60] })
			},
			span: func(_ int, rng *splitMix64) span {
				table := fewTable(rng)
				return span{uint64(slices.Min(table)), uint64(slices.Max(table))}
			},
		},
		&dist[uint32]{
			name: "equal",
			typ:  &uint32Keys,
			gen: func(n int, rng *splitMix64) []uint32 {
				v := rng.high32()
				return fill(n, func(int) uint32 { return v })
			},
			span: func(_ int, rng *splitMix64) span {
				v := uint64(rng.high32())
				return span{v, v}
			},
		},
		&dist[uint32]{
			name:     "sorted",
			typ:      &uint32Keys,
			distinct: true,
			gen:      func(n int, _ *splitMix64) []uint32 { return fill(n, func(i int) uint32 { return uint32(i) }) },
			span:     indexSpan,
		},
		&dist[uint32]{
			name:     "reverse",
			typ:      &uint32Keys,
			distinct: true,
			gen:      func(n int, _ *splitMix64) []uint32 { return fill(n, func(i int) uint32 { return uint32(n - 1 - i) }) },
			span:     indexSpan,
		},
		&dist[uint32]{
			name:     "unique",
			typ:      &uint32Keys,
			distinct: true,
			gen: func(n int, rng *splitMix64) []uint32 {
				return permute(fill(n, func(i int) uint32 { return uint32(i) }), rng)
			},
			span: indexSpan,
		},
	}
}

// distributions returns every distribution the benchmark knows, in the
// order of the charts' x axis: T4 ... T24, then otherDistributions.
func distributions() []distribution {
	var ds []distribution
	for x := minBits; x <= maxBits; x++ {
		ds = append(ds, uniform(x))
	}
	return append(ds, otherDistributions()...)
}

// quickDistributions returns the distributions of -quick: T4, T8, ...,
// T24, then otherDistributions.
func quickDistributions() []distribution {
	var ds []distribution
	for x := minBits; x <= maxBits; x += 4 {
		ds = append(ds, uniform(x))
	}
	return append(ds, otherDistributions()...)
}

// distributionNamed returns the distribution called name.
func distributionNamed(name string) (distribution, error) {
	all := distributions()
	if i := slices.IndexFunc(all, func(d distribution) bool { return d.label() == name }); i >= 0 {
		return all[i], nil
	}
	return nil, fmt.Errorf("unknown distribution %q: want one of %v", name, distOrder())
}
