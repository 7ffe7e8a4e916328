package sorts_test

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// Counting sort and occurrence sort of a few keys on the CPU evaluator;
// with runtime.Open(0) the same code sorts on GPU 0.
func Example() {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		fmt.Println(err)
		return
	}
	keys := []uint32{503, 7, 42, 7, 1000, 42, 7, 0}
	sorted, err := s.Sort(keys) // any keys: here, 8 keys, one launch of the block sort
	if err != nil {
		fmt.Println(err)
		return
	}
	uniq, err := s.SortUniqueRange(keys, 0, 1<<16) // occurrence sort: sorted, duplicates removed
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = s.SortUniqueRange(keys, 0, 1000) // 1000 is outside [0, 1000)
	fmt.Println(sorted)
	fmt.Println(uniq)
	fmt.Println(errors.Is(err, sorts.ErrKeyOutOfRange), err)
	// Output:
	// [0 7 7 7 42 42 503 1000]
	// [0 7 42 503 1000]
	// true sorts: key outside the declared range [0, 1000)
}
