package launch

import (
	"math"
	"unsafe"

	"github.com/obsidian-go/obsidian/runtime"
)

// Integer is the set of the IR's integer types.
type Integer interface {
	~int32 | ~uint32 | ~int64 | ~uint64
}

// Float is the set of the IR's floating-point types.
type Float interface{ ~float32 | ~float64 }

// Number is the set of the IR's numeric types.
type Number interface{ Integer | Float }

// Fault records the first fault met while computing a host expression.
type Fault struct{ msg string }

func (f *Fault) set(msg string) {
	if f.msg == "" {
		f.msg = msg
	}
}

// Err returns the first fault recorded, or nil.
func (f *Fault) Err() error {
	if f.msg == "" {
		return nil
	}
	return &faultError{f.msg}
}

type faultError struct{ msg string }

func (e *faultError) Error() string { return e.msg }

func signed[T Integer]() bool { return ^T(0) < 0 }

func bits[T Integer]() uint64 {
	var zero T
	return 8 * uint64(unsafe.Sizeof(zero))
}

// Div returns x / y truncated toward zero; division by zero and the
// smallest signed value divided by -1 are faults, giving 0.
func Div[T Integer](f *Fault, x, y T) T {
	if !divisible(f, x, y) {
		return 0
	}
	return x / y
}

// Rem returns the remainder x % y (sign of x), with Div's faults.
func Rem[T Integer](f *Fault, x, y T) T {
	if !divisible(f, x, y) {
		return 0
	}
	return x % y
}

func divisible[T Integer](f *Fault, x, y T) bool {
	switch {
	case y == 0:
		f.set("integer division or remainder by zero")
		return false
	case signed[T]() && y == ^T(0) && x != 0 && x == -x:
		f.set("integer division overflow (minimum value divided by -1)")
		return false
	}
	return true
}

// Shl returns x << y; a count that is negative or not below the bit width
// is a fault, giving 0.
func Shl[T Integer](f *Fault, x, y T) T {
	if !shiftable(f, y) {
		return 0
	}
	return x << y
}

// Shr returns x >> y (arithmetic for signed types), with Shl's faults.
func Shr[T Integer](f *Fault, x, y T) T {
	if !shiftable(f, y) {
		return 0
	}
	return x >> y
}

func shiftable[T Integer](f *Fault, y T) bool {
	if y < 0 || uint64(y) >= bits[T]() {
		f.set("shift count negative or not below the bit width")
		return false
	}
	return true
}

// Quo returns x / y for floating-point values (IEEE: x / 0 is an infinity
// or NaN).
func Quo[T Float](x, y T) T { return x / y }

// FRem returns the floating-point remainder of x / y, as C's fmod.
func FRem[T Float](x, y T) T { return T(math.Mod(float64(x), float64(y))) }

// FMin returns the smaller of x and y as C's fmin: a NaN operand is
// ignored, and -0 is below +0.
func FMin[T Float](x, y T) T {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0:
		if math.Signbit(float64(x)) {
			return x
		}
		return y
	case x < y:
		return x
	}
	return y
}

// FMax returns the larger of x and y as C's fmax: a NaN operand is
// ignored, and +0 is above -0.
func FMax[T Float](x, y T) T {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0:
		if math.Signbit(float64(x)) {
			return y
		}
		return x
	case x > y:
		return x
	}
	return y
}

// FromBool returns 1 for true and 0 for false.
func FromBool[T Number](b bool) T {
	if b {
		return 1
	}
	return 0
}

// ToInt converts x to an integer type as CUDA does: truncated toward zero,
// saturated at the type's limits, NaN giving 0.
func ToInt[T Integer, F Float](x F) T {
	v := float64(x)
	if v != v {
		return 0
	}
	v = math.Trunc(v)
	n := int(bits[T]())
	if signed[T]() {
		limit := math.Ldexp(1, n-1)
		switch {
		case v <= -limit:
			return T(1) << (n - 1)
		case v >= limit:
			return ^(T(1) << (n - 1))
		}
		return T(v)
	}
	switch {
	case v <= 0:
		return 0
	case v >= math.Ldexp(1, n):
		return ^T(0)
	}
	return T(v)
}

// Len returns the length of b as a kernel sees it (0 for a nil buffer,
// which the launch then rejects).
func Len[T runtime.Scalar](b *runtime.Buffer[T]) uint32 {
	if b == nil {
		return 0
	}
	return uint32(b.Len())
}

// maxBlocks is the largest grid a launch uses.
const maxBlocks = 1<<31 - 1

// Blocks returns a number of blocks n as a launch uses it: at least 1, at
// most 2^31-1.
func Blocks[T Integer](n T) int {
	switch {
	case n < 1:
		return 1
	case uint64(n) > maxBlocks:
		return maxBlocks
	}
	return int(n)
}
