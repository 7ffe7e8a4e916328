package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
)

// Status words of decoupled look-back (DeviceScanKernel, LookBack). A
// status word is 64 bits: a flag in its high half and a 32-bit value in
// its low half, written and read with one atomic access, so that the value
// arrives with its flag. The flag carries the epoch of the launch that
// wrote it: in epoch e a tile publishes its aggregate with the flag 2e+1
// and its inclusive prefix with 2e+2 (statusFlags). A state is zeroed once,
// before its first use (a zero word is published in no epoch); each later
// launch on it takes another epoch and needs no zeroing, since the words
// left by the launches before hold other flags.

// MaxEpoch is the largest epoch of a status word: its inclusive flag,
// 2×MaxEpoch+2, is the largest 32-bit value.
const MaxEpoch = 1<<31 - 2

// statusFlags returns the flags of a status word published in epoch: that
// of a tile's aggregate (2×epoch+1) and that of its inclusive prefix
// (2×epoch+2).
func statusFlags(p dsl.Program, epoch dsl.U32) (aggregate, inclusive dsl.U32) {
	aggregate = dsl.Let(p, epoch.Mul(dsl.N(2)).Add(dsl.N(1))).Exp
	inclusive = dsl.Let(p, aggregate.Add(dsl.N(1))).Exp
	return aggregate, inclusive
}

// pack returns the status word of flag and value x.
func pack[T dsl.Number](flag dsl.U32, x dsl.Exp[T]) dsl.Exp[uint64] {
	return dsl.Cast[uint64](flag).Shl(dsl.Lit[uint64](32)).Or(dsl.Cast[uint64](bitsOf(x)))
}

// flagOf returns the flag of a status word.
func flagOf(word dsl.Exp[uint64]) dsl.U32 { return dsl.Cast[uint32](word.Shr(dsl.Lit[uint64](32))) }

// valueOf returns the value of a status word.
func valueOf[T dsl.Number](word dsl.Exp[uint64]) dsl.Exp[T] {
	return fromBits[T](dsl.Cast[uint32](word))
}

// bitsOf returns the 32 bits of x, a 32-bit value.
func bitsOf[T dsl.Number](x dsl.Exp[T]) dsl.U32 {
	if f, ok := any(x).(dsl.Exp[float32]); ok {
		return dsl.Float32Bits(f)
	}
	return dsl.Cast[uint32](x)
}

// fromBits returns the T whose 32 bits are b.
func fromBits[T dsl.Number](b dsl.U32) dsl.Exp[T] {
	if x, ok := any(dsl.Float32FromBits(b)).(dsl.Exp[T]); ok {
		return x
	}
	return dsl.Cast[T](b)
}
