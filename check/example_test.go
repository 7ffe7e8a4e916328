package check_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/check"
)

// CheckName tells which names a kernel or parameter may have: CUDA's own
// names and C's keywords are refused, with the reason.
func ExampleCheckName() {
	for _, name := range []string{"histogram", "main", "sqrt", "2d"} {
		fmt.Printf("%s: %v\n", name, check.CheckName(name))
	}
	// Output:
	// histogram: <nil>
	// main: name "main" is the name of a program's entry point
	// sqrt: name "sqrt" is a function of CUDA's math library
	// 2d: name "2d" is not a C identifier
}
