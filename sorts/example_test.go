package sorts_test

import (
	"errors"
	"fmt"
	"math"

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

// Counting sorts of device buffers enqueued one after another, with no
// wait for the host between them; Wait reports a key outside its sort's
// range once, for all of them.
func ExampleSorter_EnqueueCountingSort() {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	keys, err := runtime.FromSlice(dev, []uint32{12, 10, 15, 10, 11})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer keys.Free()
	out, err := runtime.Alloc[uint32](dev, keys.Len())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer out.Free()
	fmt.Println(s.EnqueueCountingSort(out, keys, 10, 16)) // every key in [10, 16)
	fmt.Println(s.EnqueueCountingSort(out, keys, 10, 15)) // 15 is not: known on the device only
	err = s.Wait()
	fmt.Println(errors.Is(err, sorts.ErrKeyOutOfRange), err)
	fmt.Println(s.EnqueueCountingSort(out, keys, 10, 16), s.Wait())
	sorted, err := out.ToSlice()
	fmt.Println(sorted, err)
	// Output:
	// <nil>
	// <nil>
	// true sorts: key outside the declared range of one of the 2 counting sorts enqueued since the last Wait (ranges [10, 16), [10, 15))
	// <nil> <nil>
	// [10 10 11 12 15] <nil>
}

// Scores sorted largest first, with the positions of their players
// (ArgsortSlice) and with the players' ids moved along (SortPairsSlice):
// the sort stays stable, so that tied scores keep their players' order.
func ExampleDescending() {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	scores := []float32{2.5, -1, 9, 2.5, float32(math.Inf(1)), 0}
	sorted, err := sorts.SortSlice(s, scores, sorts.Descending())
	fmt.Println(sorted, err)
	players, err := sorts.ArgsortSlice(s, scores, sorts.Descending())
	fmt.Println(players, err)
	names := []string{"ada", "bo", "cy", "di", "eve", "flo"}
	ids := []uint32{0, 1, 2, 3, 4, 5}
	_, ranked, err := sorts.SortPairsSlice(s, scores, ids, sorts.Descending())
	for _, id := range ranked {
		fmt.Print(names[id], " ")
	}
	fmt.Println(err)
	// Output:
	// [+Inf 9 2.5 2.5 0 -1] <nil>
	// [4 2 0 3 5 1] <nil>
	// eve cy ada di flo bo <nil>
}
