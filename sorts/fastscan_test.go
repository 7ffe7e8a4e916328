package sorts_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// scanTile is the fast scan's tile: 256 threads of 16 elements.
const scanTile = 4096

// tileLengthGen gives lengths at and around multiples of the scan tile
// (and of a thread's elements and a row), and random lengths up to three
// tiles and a half.
func tileLengthGen() gopter.Gen {
	special := []any{0, 1, 2, 15, 16, 17, 255, 256, 257, 511, 512, 513}
	for k := 1; k <= 3; k++ {
		special = append(special, k*scanTile-1, k*scanTile, k*scanTile+1)
	}
	return gen.OneGenOf(gen.OneConstOf(special...), gen.IntRange(0, 7*scanTile/2))
}

// valuesGen gives n values of a kind: any uint32 (the sums wrap), small
// counts as a histogram holds, or all the largest value.
func valuesGen(n int, seed uint64, kind int) []uint32 {
	r := rand.New(rand.NewPCG(seed, 3))
	vs := make([]uint32, n)
	for i := range vs {
		switch kind {
		case 0:
			vs[i] = r.Uint32()
		case 1:
			vs[i] = r.Uint32N(4)
		default:
			vs[i] = ^uint32(0)
		}
	}
	return vs
}

// prefixSums returns the inclusive prefix sums of vs, wrapping.
func prefixSums(vs []uint32) []uint32 {
	sums := make([]uint32, len(vs))
	var run uint32
	for i, v := range vs {
		run += v
		sums[i] = run
	}
	return sums
}

// scanInput is a scan property's input: the values to scan.
type scanInput struct{ values []uint32 }

func scanInputs() gopter.Gen {
	return gopter.CombineGens(tileLengthGen(), gen.UInt64(), gen.IntRange(0, 2)).Map(func(v []any) scanInput {
		return scanInput{valuesGen(v[0].(int), v[1].(uint64), v[2].(int))}
	})
}

// scanned runs scan on a buffer of the values, into a new buffer of outLen
// elements (in place when outLen is negative), and returns what it wrote.
func scanned(dev runtime.Device, values []uint32, outLen int, scan func(out, in *runtime.Buffer[uint32]) error) ([]uint32, error) {
	in, err := runtime.FromSlice(dev, values)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out := in
	if outLen >= 0 {
		if out, err = runtime.Alloc[uint32](dev, outLen); err != nil {
			return nil, err
		}
		defer out.Free()
	}
	if err := scan(out, in); err != nil {
		return nil, err
	}
	return out.ToSlice()
}

func TestFastScanOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	props := gopter.NewProperties(proptest.Parameters(t, 20))
	props.Property("Scan equals a sequential prefix sum", prop.ForAll(func(in scanInput) (bool, error) {
		got, err := scanned(dev, in.values, len(in.values), s.Scan)
		return slices.Equal(got, prefixSums(in.values)), err
	}, scanInputs()))
	props.Property("Scan in place equals a sequential prefix sum", prop.ForAll(func(in scanInput) (bool, error) {
		got, err := scanned(dev, in.values, -1, s.Scan)
		return slices.Equal(got, prefixSums(in.values)), err
	}, scanInputs()))
	props.Property("ScanExclusive equals 0 and a sequential prefix sum", prop.ForAll(func(in scanInput) (bool, error) {
		got, err := scanned(dev, in.values, len(in.values)+1, s.ScanExclusive)
		return slices.Equal(got, append([]uint32{0}, prefixSums(in.values)...)), err
	}, scanInputs()))
	props.TestingRun(t)
}

// checkScans checks Scan (out of place and in place) and ScanExclusive of a
// fast Sorter on dev for n values of every kind, for every n of sizes.
func checkScans(t *testing.T, dev runtime.Device, sizes []int) {
	t.Helper()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, n := range sizes {
		for kind := range 3 {
			values := valuesGen(n, uint64(n), kind)
			want := prefixSums(values)
			for _, c := range []struct {
				name   string
				outLen int
				scan   func(out, in *runtime.Buffer[uint32]) error
				want   []uint32
			}{
				{"Scan", n, s.Scan, want},
				{"Scan in place", -1, s.Scan, want},
				{"ScanExclusive", n + 1, s.ScanExclusive, append([]uint32{0}, want...)},
			} {
				got, err := scanned(dev, values, c.outLen, c.scan)
				if err != nil {
					t.Fatalf("%s of %d values of kind %d: %v", c.name, n, kind, err)
				}
				if i := firstDiff(got, c.want); i >= 0 {
					t.Fatalf("%s of %d values of kind %d: first difference at %d", c.name, n, kind, i)
				}
			}
		}
		t.Logf("n=%d: Scan, Scan in place and ScanExclusive equal a sequential prefix sum", n)
	}
}

// TestFastScanTilesOnCPU checks the scan at the tile boundaries, with every
// kind of values.
func TestFastScanTilesOnCPU(t *testing.T) {
	checkScans(t, runtime.CPU(), []int{0, 1, scanTile - 1, scanTile, scanTile + 1, 2*scanTile + 1})
}

func TestScanLengthMismatch(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := runtime.Alloc[uint32](dev, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	if err := s.Scan(a.View(0, 9), a); err == nil {
		t.Error("Scan of 10 elements into 9 was accepted")
	}
	if err := s.ScanExclusive(a.View(0, 9), a.View(0, 9)); err == nil {
		t.Error("ScanExclusive of 9 elements into 9 was accepted")
	}
}
