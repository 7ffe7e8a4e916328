package sorts

import (
	"math"

	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// Key is the set of key types RadixSort, SortPairs, Argsort and SortSlice
// take: 32- and 64-bit unsigned and signed integers and floats. Floats
// sort in IEEE 754 totalOrder: -NaN < -Inf < ... < -0 < +0 < ... < +Inf <
// +NaN, NaNs by their payloads (a negative NaN's larger payload first).
type Key = kernels.Key

// Value is the set of value types SortPairs moves with their keys.
type Value = kernels.Value

// orderedBits returns the bits of k in the order-preserving form the radix
// sort sorts (kernels.RadixHistogramKernel): unsigned keys as they are,
// signed ones with the sign bit flipped, floats with the sign bit flipped
// when positive and every bit flipped when negative.
func orderedBits[K Key](k K) uint64 {
	switch v := any(k).(type) {
	case uint32:
		return uint64(v)
	case int32:
		return uint64(uint32(v) ^ 1<<31)
	case float32:
		u := math.Float32bits(v)
		return uint64(u ^ (1<<31 | -(u >> 31)))
	case uint64:
		return v
	case int64:
		return uint64(v) ^ 1<<63
	case float64:
		u := math.Float64bits(v)
		return u ^ (1<<63 | -(u >> 63))
	}
	panic("sorts: orderedBits of a type outside Key") // Key is a closed set
}
