package sorts_test

import (
	"os"
	"strconv"

	"github.com/obsidian-go/obsidian/internal/proptest"
)

// longFlag returns the -long flag of the property tests.
func longFlag() *bool { return proptest.Long }

// radixN returns $OBSIDIAN_RADIX_N, the number of keys of the GPU radix
// test, or 0.
func radixN() int {
	n, err := strconv.Atoi(os.Getenv("OBSIDIAN_RADIX_N"))
	if err != nil {
		return 0
	}
	return n
}
