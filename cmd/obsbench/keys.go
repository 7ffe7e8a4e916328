package main

import "strconv"

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

// shape is how a distribution's keys are made.
type shape int

const (
	// uniformBits keys are uniform in [0, 2^bits).
	uniformBits shape = iota
	// ascending keys are 0, 1, ..., N-1 in order.
	ascending
	// permutation keys are a random permutation of 0, 1, ..., N-1.
	permutation
)

// distribution is one key distribution of the benchmark: T4..T24, sorted
// or unique.
type distribution struct {
	name  string
	shape shape
	bits  int // x of Tx
}

// Bounds of the Tx distributions.
const (
	minBits = 4
	maxBits = 24
)

// distributions returns every distribution the benchmark measures, in the
// order of the charts' x axis.
func distributions() []distribution {
	var ds []distribution
	for x := minBits; x <= maxBits; x++ {
		ds = append(ds, distribution{name: "T" + strconv.Itoa(x), shape: uniformBits, bits: x})
	}
	return append(ds, distribution{name: "sorted", shape: ascending}, distribution{name: "unique", shape: permutation})
}

// bound returns the end of the half-open key range [0, bound) of n keys of
// the distribution: 2^x for Tx, n for sorted and unique.
func (d distribution) bound(n int) uint32 {
	if d.shape == uniformBits {
		return 1 << d.bits
	}
	return uint32(n)
}

// keys returns n keys of the distribution from a generator seeded with
// seed, exactly as the baseline makes them.
func (d distribution) keys(n int, seed uint64) []uint32 {
	rng := splitMix64{state: seed}
	keys := make([]uint32, n)
	if d.shape == uniformBits {
		for i := range keys {
			keys[i] = uint32(rng.next() >> (64 - d.bits))
		}
		return keys
	}
	for i := range keys {
		keys[i] = uint32(i)
	}
	if d.shape == permutation {
		for i := n - 1; i >= 1; i-- {
			j := rng.next() % uint64(i+1)
			keys[i], keys[j] = keys[j], keys[i]
		}
	}
	return keys
}
