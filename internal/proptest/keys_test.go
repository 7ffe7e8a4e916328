package proptest

import (
	"math/rand/v2"
	"testing"
)

// TestConstantBytesKeys checks, for every pattern of constant bytes of 32-
// and 64-bit keys, that the bytes the pattern names are the same in every
// key and the others vary (among 100 random keys, a byte repeats by chance
// with probability 256^-99).
func TestConstantBytesKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for constant := range 256 {
		checkConstantBytes(t, ConstantBytesKeys[uint32](r, 100, uint8(constant)), 4, uint8(constant))
		checkConstantBytes(t, ConstantBytesKeys[uint64](r, 100, uint8(constant)), 8, uint8(constant))
	}
}

func checkConstantBytes[K uint32 | uint64](t *testing.T, keys []K, bytes int, constant uint8) {
	t.Helper()
	for q := range bytes {
		varies := false
		for _, k := range keys {
			varies = varies || (k>>(8*q))&0xff != (keys[0]>>(8*q))&0xff
		}
		if want := constant&(1<<q) == 0; varies != want {
			t.Fatalf("%d-byte keys, constant %08b: byte %d varies %v", bytes, constant, q, varies)
		}
	}
}
