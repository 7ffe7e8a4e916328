package arrays_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// launch builds k, loads it on dev and launches it with args.
func launch(dev runtime.Device, k *dsl.Kernel, args ...any) error {
	kernel, err := k.Build()
	if err != nil {
		return err
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		return err
	}
	return dev.Launch(fn, runtime.LaunchConfig{}, args...)
}

// toDevice copies s to dev, failing t on an error.
func toDevice[T runtime.Scalar](t *testing.T, dev runtime.Device, s []T) *runtime.Buffer[T] {
	t.Helper()
	b, err := runtime.FromSlice(dev, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// alloc allocates n elements on dev, failing t on an error.
func alloc[T runtime.Scalar](t *testing.T, dev runtime.Device, n int) *runtime.Buffer[T] {
	t.Helper()
	b, err := runtime.Alloc[T](dev, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// fromDevice copies b to the host, failing t on an error.
func fromDevice[T runtime.Scalar](t *testing.T, b *runtime.Buffer[T]) []T {
	t.Helper()
	s, err := b.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// keyValues returns n random keys below span and n random float values,
// all different (value i is in [i, i+1)), so that a pair that moves
// differently from the others shows.
func keyValues(seed uint64, n int, span uint32) ([]uint32, []float32) {
	r := rand.New(rand.NewPCG(seed, 7))
	keys, vals := make([]uint32, n), make([]float32, n)
	for i := range keys {
		keys[i], vals[i] = r.Uint32N(span), float32(i)+r.Float32()
	}
	return keys, vals
}

// pairsKernel returns a one-block kernel that zips the first n keys and
// values, writes them through ComputePairs into shared memory and back
// (unzipped) into two outputs, and writes Unzip of Zip of the inputs
// straight into two others.
func pairsKernel(n uint32, threads int) *dsl.Kernel {
	k := dsl.NewKernel("pairs", threads)
	keys, vals := dsl.Input[uint32](k, "keys"), dsl.Input[float32](k, "vals")
	ck, cv := dsl.Output[uint32](k, "computedKeys"), dsl.Output[float32](k, "computedVals")
	uk, uv := dsl.Output[uint32](k, "unzippedKeys"), dsl.Output[float32](k, "unzippedVals")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			a, v := arrays.Take(dsl.N(n), arrays.FromArray(keys)), arrays.Take(dsl.N(n), arrays.FromArray(vals))
			p := arrays.ComputePairs(b, arrays.Zip(a, v))
			arrays.WritePairsTo(b, ck, cv, arrays.ToPushPairs[*dsl.Block](p))
			a2, v2 := arrays.Unzip(arrays.Zip(a, v))
			arrays.WriteTo(b, uk, arrays.ToPush[*dsl.Block](a2))
			arrays.WriteTo(b, uv, arrays.ToPush[*dsl.Block](v2))
		})
	})
	return k
}

// TestPairsRoundTrip checks Unzip(Zip(a, b)) = (a, b), and that
// ComputePairs keeps both halves of every pair, for random lengths and
// block sizes.
func TestPairsRoundTrip(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 15))
	props.Property("Unzip . Zip = id, ComputePairs keeps both", prop.ForAll(func(n, warps int, seed uint64) string {
		keys, vals := keyValues(seed, n, 1<<31)
		kb, vb := toDevice(t, dev, keys), toDevice(t, dev, vals)
		ck, cv := alloc[uint32](t, dev, n), alloc[float32](t, dev, n)
		uk, uv := alloc[uint32](t, dev, n), alloc[float32](t, dev, n)
		if err := launch(dev, pairsKernel(uint32(n), warps*ir.WarpSize), kb, vb, ck, cv, uk, uv); err != nil {
			return err.Error()
		}
		for _, d := range []string{
			differ("computed keys", fromDevice(t, ck), keys), differ("computed values", fromDevice(t, cv), vals),
			differ("unzipped keys", fromDevice(t, uk), keys), differ("unzipped values", fromDevice(t, uv), vals),
		} {
			if d != "" {
				return fmt.Sprintf("%d pairs, %d warps: %s", n, warps, d)
			}
		}
		return ""
	}, gen.IntRange(1, 700), gen.IntRange(1, 4), gen.UInt64()))
	props.TestingRun(t)
}

// TestComputePairsHasOneBarrier checks that ComputePairs writes both
// halves of the pairs in one ForAll and puts one barrier after them.
func TestComputePairsHasOneBarrier(t *testing.T) {
	kernel, err := pairsKernel(100, 64).Build()
	if err != nil {
		t.Fatal(err)
	}
	syncs, forAlls := 0, 0
	ir.WalkStmts(kernel.Body, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.Sync:
			syncs++
		case *ir.ForAll:
			if s.Kind == ir.BlockThreads {
				forAlls++
			}
		}
		return true
	})
	// One ForAll into shared memory, one out of it, one for the unzipped
	// keys and one for the unzipped values.
	if syncs != 1 || forAlls != 4 {
		t.Errorf("%d barriers and %d block ForAlls, want 1 and 4", syncs, forAlls)
	}
	if len(kernel.Shared) != 2 {
		t.Errorf("%d shared arrays, want 2", len(kernel.Shared))
	}
}

// TestZipOfArraysOfUnknownLengths checks that Zip of two arrays whose
// lengths are known only at run time is as long as the shorter: no pair
// reads past either array's end.
func TestZipOfArraysOfUnknownLengths(t *testing.T) {
	dev := runtime.CPU()
	k := dsl.NewKernel("zip", 64)
	keys, vals := dsl.Input[uint32](k, "keys"), dsl.Input[float32](k, "vals")
	ok, ov := dsl.Output[uint32](k, "keysOut"), dsl.Output[float32](k, "valsOut")
	k.Body(func(g *dsl.Grid) {
		p := arrays.Zip(arrays.FromArray(keys), arrays.FromArray(vals))
		arrays.WritePairsTo(g, ok, ov, arrays.ToPushPairs[*dsl.Grid](p))
	})
	kernel, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		t.Fatal(err)
	}
	for _, lens := range [][2]int{{10, 300}, {300, 10}, {0, 5}, {77, 77}} {
		keys, _ := keyValues(uint64(lens[0]), lens[0], 1<<31)
		_, vals := keyValues(uint64(lens[1]), lens[1], 1)
		for i := range keys {
			keys[i] |= 1 // never zero, as the output buffers start
		}
		okb, ovb := alloc[uint32](t, dev, 300), alloc[float32](t, dev, 300)
		if err := dev.Launch(fn, runtime.LaunchConfig{}, toDevice(t, dev, keys), toDevice(t, dev, vals), okb, ovb); err != nil {
			t.Fatal(err)
		}
		m := min(lens[0], lens[1])
		gotK, gotV := fromDevice(t, okb), fromDevice(t, ovb)
		wantK := append(slices.Clone(keys[:m]), make([]uint32, 300-m)...)
		wantV := append(slices.Clone(vals[:m]), make([]float32, 300-m)...)
		if d := differ("keys", gotK, wantK) + differ("values", gotV, wantV); d != "" {
			t.Errorf("lengths %v: %s", lens, d)
		}
	}
}

// oddEvenSortKernel returns a one-block kernel that sorts the first n
// pairs of keys and values by key with n steps of odd-even transposition
// sort, each step a ComputePairs of EvensPairs or OddsPairs of
// CmpSwapByKey: a sorting network of key-value two-sorters.
func oddEvenSortKernel(n uint32, threads int) *dsl.Kernel {
	k := dsl.NewKernel("oddEvenSortPairs", threads)
	keys, vals := dsl.Input[uint32](k, "keys"), dsl.Input[float32](k, "vals")
	ok, ov := dsl.Output[uint32](k, "sortedKeys"), dsl.Output[float32](k, "sortedVals")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			p := arrays.Zip(arrays.Take(dsl.N(n), arrays.FromArray(keys)), arrays.Take(dsl.N(n), arrays.FromArray(vals)))
			for step := range n {
				if step%2 == 0 {
					p = arrays.ComputePairs(b, arrays.EvensPairs(arrays.CmpSwapByKey[uint32, float32], p))
				} else {
					p = arrays.ComputePairs(b, arrays.OddsPairs(arrays.CmpSwapByKey[uint32, float32], p))
				}
			}
			arrays.WritePairsTo(b, ok, ov, arrays.ToPushPairs[*dsl.Block](p))
		})
	})
	return k
}

// sortPairs runs oddEvenSortKernel on dev and returns the sorted keys and
// values.
func sortPairs(dev runtime.Device, threads int, keys []uint32, vals []float32) ([]uint32, []float32, error) {
	kb, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return nil, nil, err
	}
	defer kb.Free()
	vb, err := runtime.FromSlice(dev, vals)
	if err != nil {
		return nil, nil, err
	}
	defer vb.Free()
	ok, err := runtime.Alloc[uint32](dev, len(keys))
	if err != nil {
		return nil, nil, err
	}
	defer ok.Free()
	ov, err := runtime.Alloc[float32](dev, len(keys))
	if err != nil {
		return nil, nil, err
	}
	defer ov.Free()
	if err := launch(dev, oddEvenSortKernel(uint32(len(keys)), threads), kb, vb, ok, ov); err != nil {
		return nil, nil, err
	}
	gotK, err := ok.ToSlice()
	if err != nil {
		return nil, nil, err
	}
	gotV, err := ov.ToSlice()
	return gotK, gotV, err
}

// stableSortPairs sorts keys and values by key in Go, equal keys keeping
// their order.
func stableSortPairs(keys []uint32, vals []float32) ([]uint32, []float32) {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(keys[i], keys[j]) })
	k, v := make([]uint32, len(keys)), make([]float32, len(keys))
	for o, i := range idx {
		k[o], v[o] = keys[i], vals[i]
	}
	return k, v
}

// checkSortPairs sorts keys and values on dev and compares the result
// with Go's stable sort.
func checkSortPairs(dev runtime.Device, threads int, keys []uint32, vals []float32) string {
	gotK, gotV, err := sortPairs(dev, threads, keys, vals)
	where := fmt.Sprintf("%d pairs, %d threads: ", len(keys), threads)
	if err != nil {
		return where + err.Error()
	}
	wantK, wantV := stableSortPairs(keys, vals)
	if d := differ("keys", gotK, wantK) + differ("values", gotV, wantV); d != "" {
		return where + d
	}
	return ""
}

// TestSortPairsByKey checks that odd-even transposition sort of pairs by
// CmpSwapByKey sorts the keys stably, each value travelling with its key,
// with keys of few distinct values (many ties) and of many.
func TestSortPairsByKey(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 10))
	props.Property("sorts stably", prop.ForAll(func(n, warps, spanBits int, seed uint64) string {
		keys, vals := keyValues(seed, n, 1<<spanBits)
		return checkSortPairs(dev, warps*ir.WarpSize, keys, vals)
	}, gen.IntRange(1, 70), gen.IntRange(1, 2), gen.IntRange(0, 31), gen.UInt64()))
	props.TestingRun(t)
}

// TestPairCombinatorsAgainstGo checks MapPairs, IxMapPairs and
// ReversePairs against Go on one input.
func TestPairCombinatorsAgainstGo(t *testing.T) {
	const n = 37
	keys, vals := keyValues(5, n, 1000)
	k := dsl.NewKernel("pairCombinators", 64)
	kin, vin := dsl.Input[uint32](k, "keys"), dsl.Input[float32](k, "vals")
	ok, ov := dsl.Output[uint32](k, "keysOut"), dsl.Output[float32](k, "valsOut")
	k.Body(func(g *dsl.Grid) {
		p := arrays.Zip(arrays.FromArray(kin), arrays.FromArray(vin))
		// Swap the roles: the value's integer part becomes the key, the
		// key the value; then every third pair, reversed.
		swapped := arrays.MapPairs(p, func(x arrays.Pair[uint32, float32]) arrays.Pair[float32, uint32] {
			return arrays.Pair[float32, uint32]{Fst: x.Snd.Mul(dsl.Lit[float32](2)), Snd: x.Fst.Add(dsl.N(1))}
		})
		back := arrays.MapPairs(swapped, func(x arrays.Pair[float32, uint32]) arrays.Pair[uint32, float32] {
			return arrays.Pair[uint32, float32]{Fst: x.Snd, Snd: x.Fst}
		})
		thirds := arrays.IxMapPairs(func(i dsl.U32) dsl.U32 { return i.Mul(dsl.N(3)).Rem(dsl.N(n)) }, back)
		arrays.WritePairsTo(g, ok, ov, arrays.ToPushPairs[*dsl.Grid](arrays.ReversePairs(thirds)))
	})
	dev := runtime.CPU()
	okb, ovb := alloc[uint32](t, dev, n), alloc[float32](t, dev, n)
	if err := launch(dev, k, toDevice(t, dev, keys), toDevice(t, dev, vals), okb, ovb); err != nil {
		t.Fatal(err)
	}
	wantK, wantV := make([]uint32, n), make([]float32, n)
	for i := range n {
		j := (n - 1 - i) * 3 % n
		wantK[i], wantV[i] = keys[j]+1, vals[j]*2
	}
	if d := differ("keys", fromDevice(t, okb), wantK) + differ("values", fromDevice(t, ovb), wantV); d != "" {
		t.Error(d)
	}
}
