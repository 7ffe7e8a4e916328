package dsl_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// narrowKernel computes, per element: a uint8 sum and product that wrap,
// an int16 difference, and a float16 scaled through float32.
func narrowKernel() *dsl.Kernel {
	k := dsl.NewKernel("narrow", 128)
	a, b := dsl.Input[uint8](k, "a"), dsl.Input[int16](k, "b")
	h := dsl.Input[half.Float16](k, "h")
	sum, diff := dsl.Output[uint8](k, "sum"), dsl.Output[int16](k, "diff")
	scaled := dsl.Output[half.Float16](k, "scaled")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(sum.Len(), func(t *dsl.Thread, i dsl.U32) {
			sum.Store(t, i, a.At(i).Add(dsl.Lit[uint8](200)).Mul(a.At(i)))
			diff.Store(t, i, b.At(i).Sub(dsl.Lit[int16](30000)).Shr(dsl.Lit[int16](1)))
			f := dsl.Cast[float32](h.At(i)).Mul(dsl.Lit[float32](3))
			scaled.Store(t, i, dsl.Cast[half.Float16](f))
		})
	})
	return k
}

// TestNarrowTypesOnTheCPU runs narrowKernel in the evaluator on random
// data and compares with Go's arithmetic on the same types.
func TestNarrowTypesOnTheCPU(t *testing.T) { checkNarrowKernel(t, runtime.CPU()) }

// TestGPUNarrowTypes runs narrowKernel on the GPU on random data and
// compares with Go's arithmetic on the same types.
func TestGPUNarrowTypes(t *testing.T) {
	checkNarrowKernel(t, gputest.Open(t))
}

func checkNarrowKernel(t *testing.T, dev runtime.Device) {
	kernel, err := narrowKernel().Build()
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	seed := proptest.Seed(t)
	rng := rand.New(rand.NewPCG(seed, 2))
	as, bs, hs := make([]uint8, n), make([]int16, n), make([]half.Float16, n)
	for i := range n {
		as[i], bs[i], hs[i] = uint8(rng.Uint32()), int16(rng.Uint32()), half.Float16(rng.Uint32())
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		t.Fatal(err)
	}
	bufA, _ := runtime.FromSlice(dev, as)
	bufB, _ := runtime.FromSlice(dev, bs)
	bufH, _ := runtime.FromSlice(dev, hs)
	sum, _ := runtime.Alloc[uint8](dev, n)
	diff, _ := runtime.Alloc[int16](dev, n)
	scaled, _ := runtime.Alloc[half.Float16](dev, n)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, bufA, bufB, bufH, sum, diff, scaled); err != nil {
		t.Fatal(err)
	}
	gotSum, _ := sum.ToSlice()
	gotDiff, _ := diff.ToSlice()
	gotScaled, _ := scaled.ToSlice()
	for i := range n {
		wantScaled := half.Float16From(hs[i].Float32() * 3)
		nan := math.IsNaN(float64(wantScaled.Float32())) && math.IsNaN(float64(gotScaled[i].Float32()))
		if gotSum[i] != (as[i]+200)*as[i] || gotDiff[i] != (bs[i]-30000)>>1 || (gotScaled[i] != wantScaled && !nan) {
			t.Fatalf("element %d: %d %d %#04x, want %d %d %#04x", i, gotSum[i], gotDiff[i], gotScaled[i],
				(as[i]+200)*as[i], (bs[i]-30000)>>1, wantScaled)
		}
	}
}

// TestStorageFloatsConvertOnlyToFloat32 checks that the dsl rejects the
// conversions the 16-bit float types do not have, and arithmetic on them.
func TestStorageFloatsConvertOnlyToFloat32(t *testing.T) {
	k := dsl.NewKernel("bad", 32)
	h := dsl.Input[half.Float16](k, "h")
	out := dsl.Output[int32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) {
			out.Store(t, i, dsl.Cast[int32](h.At(i)))
		})
	})
	if _, err := k.Build(); err == nil {
		t.Error("Build accepted a float16 converted to int32")
	}
}
