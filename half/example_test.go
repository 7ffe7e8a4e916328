package half_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/half"
)

// A float32 stored as a float16 or a bfloat16 is rounded to nearest, ties to
// even, as the GPU's conversions do; converting back is exact.
func Example() {
	x := float32(3.14159)
	h := half.Float16From(x)
	b := half.BFloat16From(x)
	fmt.Printf("float16  %#04x %v\n", uint16(h), h.Float32())
	fmt.Printf("bfloat16 %#04x %v\n", uint16(b), b.Float32())
	// Output:
	// float16  0x4248 3.140625
	// bfloat16 0x4049 3.140625
}
