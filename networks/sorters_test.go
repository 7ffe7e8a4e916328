package networks_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/networks"
	"github.com/obsidian-go/obsidian/runtime"
)

// randomKeys returns n keys from seed, drawn from a range of the given
// bits so that small ranges give many equal keys.
func randomKeys(n int, bits uint, seed uint64) []uint32 {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = uint32(r.Uint64() >> (64 - bits))
	}
	return keys
}

// sortedBatches is the expected result: every batch of keys sorted.
func sortedBatches(keys []uint32, batch int) []uint32 {
	want := slices.Clone(keys)
	for lo := 0; lo < len(want); lo += batch {
		slices.Sort(want[lo:min(lo+batch, len(want))])
	}
	return want
}

// sortOn runs alg on dev over keys in batches of batch and returns the
// output.
func sortOn(t *testing.T, dev runtime.Device, alg networks.Algorithm, batch int, keys []uint32) []uint32 {
	t.Helper()
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](dev, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if err := networks.Sort(dev, out, in, batch, alg); err != nil {
		t.Fatalf("%v, batch %d, %d keys: %v", alg, batch, len(keys), err)
	}
	got, err := out.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSortersSortBatches checks every sorter on the CPU device against
// slices.Sort: batches of every length from 1 (odd ones included, which
// the thesis' first odd-even transposition sort got wrong), inputs of
// several batches with a shorter last one, and none.
func TestSortersSortBatches(t *testing.T) {
	dev := runtime.CPU()
	for _, alg := range networks.Algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			props := gopter.NewProperties(proptest.Parameters(t, 12))
			props.Property("every batch sorted", prop.ForAll(func(batch, batches, extra int, bits uint, order int, seed uint64) bool {
				keys := randomKeys(batches*batch+extra%batch, bits, seed)
				switch order { // the worst case of transposition sorts, and no work to do
				case 1:
					slices.Sort(keys)
					slices.Reverse(keys)
				case 2:
					slices.Sort(keys)
				}
				got := sortOn(t, dev, alg, batch, keys)
				if want := sortedBatches(keys, batch); !slices.Equal(got, want) {
					t.Logf("batch %d, keys %v:\ngot  %v\nwant %v", batch, keys, got, want)
					return false
				}
				return true
			}, gen.IntRange(1, 70), gen.IntRange(0, 3), gen.IntRange(0, 70), gen.UIntRange(1, 32), gen.IntRange(0, 2), gen.UInt64()))
			props.TestingRun(t)
		})
	}
}

// TestSortersSmallLengths checks every batch length from 1 to 17 and the
// empty input, for every sorter, on one input of three batches.
func TestSortersSmallLengths(t *testing.T) {
	dev := runtime.CPU()
	for _, alg := range networks.Algorithms() {
		for batch := 1; batch <= 17; batch++ {
			keys := randomKeys(3*batch-1, 32, uint64(batch))
			if got, want := sortOn(t, dev, alg, batch, keys), sortedBatches(keys, batch); !slices.Equal(got, want) {
				t.Errorf("%v, batch %d:\ngot  %v\nwant %v", alg, batch, got, want)
			}
		}
		if got := sortOn(t, dev, alg, 4, nil); len(got) != 0 {
			t.Errorf("%v of no keys gave %v", alg, got)
		}
	}
}

// TestOETParamOneKernelEveryBatch checks that one length-parametric
// kernel sorts batches of every length up to its capacity.
func TestOETParamOneKernelEveryBatch(t *testing.T) {
	dev := runtime.CPU()
	s, err := networks.New(dev, networks.OddEvenTranspositionParam, 40)
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{1, 2, 3, 7, 16, 33, 39, 40} {
		keys := randomKeys(5*batch+batch/2, 32, uint64(batch)+7)
		in, _ := runtime.FromSlice(dev, keys)
		out, _ := runtime.Alloc[uint32](dev, len(keys))
		if err := s.SortBatches(out, in, batch); err != nil {
			t.Fatal(err)
		}
		got, _ := out.ToSlice()
		if want := sortedBatches(keys, batch); !slices.Equal(got, want) {
			t.Errorf("batch %d:\ngot  %v\nwant %v", batch, got, want)
		}
	}
}

// TestTablesArePermutations checks RiffleTable and TauTable against the
// thesis' definitions on Go slices: riffle, and tau n = one rev ->- two
// (tau (n-1)).
func TestTablesArePermutations(t *testing.T) {
	var tau func(n int, idx []uint32) []uint32
	tau = func(n int, idx []uint32) []uint32 {
		if n == 0 {
			return idx
		}
		h := len(idx) / 2
		oneRev := append(slices.Clone(idx[:h]), idx[h:]...)
		slices.Reverse(oneRev[h:])
		return append(tau(n-1, oneRev[:h]), tau(n-1, oneRev[h:])...)
	}
	for m := 1; m <= 11; m++ {
		n := 1 << m
		ids := make([]uint32, n)
		for i := range ids {
			ids[i] = uint32(i)
		}
		if got, want := networks.TauTable(n), tau(m-1, ids); !slices.Equal(got, want) {
			t.Errorf("TauTable(%d) = %v, want %v", n, got, want)
		}
		riffle := make([]uint32, 0, n)
		for i := 0; i < n/2; i++ {
			riffle = append(riffle, uint32(i), uint32(i+n/2))
		}
		if got := networks.RiffleTable(n); !slices.Equal(got, riffle) {
			t.Errorf("RiffleTable(%d) = %v, want %v", n, got, riffle)
		}
	}
}

// TestVSortTablesInConstantMemory checks that the VSortTables kernel
// holds its riffle and tau tables as constant tables, printed with their
// elements, and takes only its input and output.
func TestVSortTablesInConstantMemory(t *testing.T) {
	k, err := networks.Kernel(networks.VSortTables, 8)
	if err != nil {
		t.Fatal(err)
	}
	kern, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	if len(kern.Params) != 2 || len(kern.Constants) != 2 {
		t.Fatalf("the kernel has %d parameters and %d constant tables, want 2 and 2", len(kern.Params), len(kern.Constants))
	}
	src, _, err := codegen.CUDA(kern)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"__constant__ unsigned int riffleTable[8] = {0u, 4u, 1u, 5u, 2u, 6u, 3u, 7u};",
		"__constant__ unsigned int tauTable[8] = {" + strings.Join(uintsC(networks.TauTable(8)), ", ") + "};",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the CUDA lacks %q:\n%s", want, src)
		}
	}
}

// uintsC spells xs as CUDA's unsigned int constants.
func uintsC(xs []uint32) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.FormatUint(uint64(x), 10) + "u"
	}
	return out
}
