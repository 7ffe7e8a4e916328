package proptest

import "math/rand/v2"

// ConstantBytesKeys returns n random keys in which byte q is the same in
// every key when bit q of constant is set: keys whose radix sort finds a
// single digit in those bytes' passes, which it must skip.
func ConstantBytesKeys[K uint32 | uint64](r *rand.Rand, n int, constant uint8) []K {
	random := func() K { return K(r.Uint64()) }
	fixed := random()
	var mask K
	for q := range sizeOf[K]() {
		if constant&(1<<q) != 0 {
			mask |= K(0xff) << (8 * q)
		}
	}
	keys := make([]K, n)
	for i := range keys {
		keys[i] = fixed&mask | random()&^mask
	}
	return keys
}

// sizeOf returns the bytes of K.
func sizeOf[K uint32 | uint64]() int {
	var k K
	if ^k == K(^uint32(0)) {
		return 4
	}
	return 8
}
