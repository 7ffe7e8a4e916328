package sorts_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// TestRadixPlanSkipsOneDigitPasses checks the passes' plan (which passes
// run, where each reads and writes) against plain Go on the CPU device:
// keys whose passes find one digit in every pattern of passes (none, some,
// all), of 32 and 64 bits, sorted by RadixSort, SortPairs and Argsort,
// into other buffers and in place (keys alone, values alone, both), over
// several tiles. Every result is compared with a stable sort in Go.
func TestRadixPlanSkipsOneDigitPasses(t *testing.T) {
	s, dev := smallTiles(t)
	checkPlanProperty(t, s, dev, 40, 700)
}

// TestGPURadixPlanSkipsOneDigitPasses is the same property on the GPU
// with the default tiles, up to 2^18 keys (dozens of tiles), each result
// compared with Go's stable sort; with -short (the memory checkers' run),
// 6 cases of up to 2^15 keys.
func TestGPURadixPlanSkipsOneDigitPasses(t *testing.T) {
	g := gputest.Open(t)
	tests, maxKeys := 24, 1<<18
	if testing.Short() {
		tests, maxKeys = 6, 1<<15
	}
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkPlanProperty(t, s, g, tests, maxKeys)
}

// checkPlanProperty runs the plan's property on dev with up to maxKeys
// keys.
func checkPlanProperty(t *testing.T, s *sorts.Sorter, dev runtime.Device, tests, maxKeys int) {
	params := proptest.Parameters(t, tests)
	props := gopter.NewProperties(params)
	props.Property("the radix sort with one-digit passes skipped is the stable sort", prop.ForAll(
		func(constant uint8, wide bool, n int, inPlace int, seed uint64) string {
			r := rand.New(rand.NewPCG(seed, 31))
			keys64 := proptest.ConstantBytesKeys[uint64](r, n, constant)
			where := fmt.Sprintf("%d keys, constant bytes %08b, in place %d", n, constant, inPlace)
			if wide {
				return checkPlan(s, dev, keys64, inPlace, "64-bit "+where)
			}
			keys32 := make([]uint32, n)
			for i, k := range keys64 {
				keys32[i] = uint32(k)
			}
			return checkPlan(s, dev, keys32, inPlace, "32-bit "+where)
		},
		// Constant bytes: random, or every byte, or all but the lowest or
		// the highest.
		gen.OneGenOf(gen.UInt8(), gen.Const(uint8(0xff)), gen.Const(uint8(0xfe)), gen.Const(uint8(0x7f))),
		gen.Bool(), gen.IntRange(1, maxKeys), gen.IntRange(0, 3), gen.UInt64()))
	props.TestingRun(t)
}

// checkPlan sorts keys on dev by RadixSort, SortPairs (values: the
// positions, plus 7) and Argsort, with keys (bit 0 of inPlace) and values
// (bit 1) sorted in place, and returns what differs from Go's stable sort.
func checkPlan[K uint32 | uint64](s *sorts.Sorter, dev runtime.Device, keys []K, inPlace int, where string) string {
	order := make([]uint32, len(keys))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
	wantKeys := make([]K, len(keys))
	wantValues := make([]uint32, len(keys))
	for i, o := range order {
		wantKeys[i], wantValues[i] = keys[o], o+7
	}
	values := make([]uint32, len(keys))
	for i := range values {
		values[i] = uint32(i) + 7
	}
	var free []interface{ Free() error }
	defer func() {
		for _, b := range free {
			b.Free()
		}
	}()
	buffer := func(xs []K) *runtime.Buffer[K] {
		b, err := runtime.FromSlice(dev, xs)
		if err != nil {
			panic(err)
		}
		free = append(free, b)
		return b
	}
	valueBuffer := func(xs []uint32) *runtime.Buffer[uint32] {
		b, err := runtime.FromSlice(dev, xs)
		if err != nil {
			panic(err)
		}
		free = append(free, b)
		return b
	}
	// RadixSort.
	in := buffer(keys)
	out := in
	if inPlace&1 == 0 {
		out = buffer(make([]K, len(keys)))
	}
	if err := sorts.RadixSort(s, out, in); err != nil {
		return where + ": RadixSort: " + err.Error()
	}
	if got, err := out.ToSlice(); err != nil || !slices.Equal(got, wantKeys) {
		return fmt.Sprintf("%s: RadixSort: %v, %v", where, err, firstMismatch(got, wantKeys))
	}
	// SortPairs.
	in, vin := buffer(keys), valueBuffer(values)
	out, vout := in, vin
	if inPlace&1 == 0 {
		out = buffer(make([]K, len(keys)))
	}
	if inPlace&2 == 0 {
		vout = valueBuffer(make([]uint32, len(keys)))
	}
	if err := sorts.SortPairs(s, out, vout, in, vin); err != nil {
		return where + ": SortPairs: " + err.Error()
	}
	if got, err := out.ToSlice(); err != nil || !slices.Equal(got, wantKeys) {
		return fmt.Sprintf("%s: SortPairs' keys: %v, %v", where, err, firstMismatch(got, wantKeys))
	}
	if got, err := vout.ToSlice(); err != nil || !slices.Equal(got, wantValues) {
		return fmt.Sprintf("%s: SortPairs' values: %v, %v", where, err, firstMismatch(got, wantValues))
	}
	// Argsort.
	in = buffer(keys)
	pos := valueBuffer(make([]uint32, len(keys)))
	if err := sorts.Argsort(s, pos, in); err != nil {
		return where + ": Argsort: " + err.Error()
	}
	if got, err := pos.ToSlice(); err != nil || !slices.Equal(got, order) {
		return fmt.Sprintf("%s: Argsort: %v, %v", where, err, firstMismatch(got, order))
	}
	return ""
}

// firstMismatch describes the first index where got and want differ.
func firstMismatch[T comparable](got, want []T) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("first difference at %d: got %v, want %v", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(got), len(want))
}
