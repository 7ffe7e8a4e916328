package arrays_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// maxSeqLen is the longest array the sequential scans are checked on: all
// lengths from 0 are.
const maxSeqLen = 70

// load builds k and loads it on dev, failing t on an error.
func load(t *testing.T, dev runtime.Device, k *dsl.Kernel) runtime.Function {
	t.Helper()
	kernel, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		t.Fatal(err)
	}
	return fn
}

// seqScanKernel returns a kernel whose one thread writes SeqScan (or
// SeqScanExclusive) of its input under o, into an output or, in place,
// over the input itself.
func seqScanKernel(o operator[uint32], exclusive, inPlace bool) *dsl.Kernel {
	k := dsl.NewKernel("seqScan", 32)
	in := dsl.InOut[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	if inPlace {
		out = in
	}
	k.Body(func(g *dsl.Grid) {
		g.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
			scan := arrays.SeqScan(o.op, arrays.FromArray(in))
			if exclusive {
				scan = arrays.SeqScanExclusive(o.op, dsl.Lit(o.identity), arrays.FromArray(in))
			}
			arrays.WriteTo(t, out, scan)
		})
	})
	return k
}

// TestSeqScanAgainstGo checks SeqScan and SeqScanExclusive against the
// sequential Go scans for every operator of u32Ops and every length from 0
// to maxSeqLen, into another array and in place.
func TestSeqScanAgainstGo(t *testing.T) {
	dev := runtime.CPU()
	for _, o := range u32Ops {
		for _, exclusive := range []bool{false, true} {
			for _, inPlace := range []bool{false, true} {
				fn := load(t, dev, seqScanKernel(o, exclusive, inPlace))
				for n := range maxSeqLen + 1 {
					xs := o.values(uint64(n), n)
					in, out := toDevice(t, dev, xs), alloc[uint32](t, dev, n)
					if err := dev.Launch(fn, runtime.LaunchConfig{}, in, out); err != nil {
						t.Fatal(err)
					}
					incl, excl, _ := o.scan(xs)
					want, got := incl, fromDevice(t, out)
					if exclusive {
						want = excl
					}
					if inPlace {
						got = fromDevice(t, in)
					}
					if d := differ("scan", got, want); d != "" {
						t.Errorf("%s, exclusive %v, in place %v, %d elements: %s", o.name, exclusive, inPlace, n, d)
					}
				}
			}
		}
	}
}

// TestSeqScanInMapThreads checks SeqScan as the per-thread program of
// MapThreads: every thread scans its own four elements, a segmented scan.
func TestSeqScanInMapThreads(t *testing.T) {
	dev := runtime.CPU()
	k := dsl.NewKernel("segmentedScan", 64)
	in, out := dsl.Input[uint32](k, "input"), dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		parts := arrays.SplitUp(4, dsl.N(0), arrays.FromArray(in))
		arrays.WriteTo(g, out, arrays.MapThreads[*dsl.Grid](parts, 4,
			func(_ *dsl.Thread, _ dsl.U32, part arrays.Pull[uint32]) arrays.Push[*dsl.Thread, uint32] {
				return arrays.SeqScan(dsl.U32.Add, part)
			}))
	})
	fn := load(t, dev, k)
	for _, n := range []int{0, 1, 4, 7, 255, 301} {
		xs := randomInput(n, uint64(n))
		outb := alloc[uint32](t, dev, n)
		if err := dev.Launch(fn, runtime.LaunchConfig{}, toDevice(t, dev, xs), outb); err != nil {
			t.Fatal(err)
		}
		want := make([]uint32, n)
		for i, x := range xs {
			want[i] = x
			if i%4 > 0 {
				want[i] += want[i-1]
			}
		}
		if d := differ("segmented scan", fromDevice(t, outb), want); d != "" {
			t.Errorf("%d elements: %s", n, d)
		}
	}
}

// mapAccumStep is the step the MapAccum test threads through an array: a
// 64-bit accumulator of a polynomial hash, and as output the low half of
// the accumulator before the step, xored with the element, as an int32.
func mapAccumStep(acc dsl.U64, x dsl.U32) (dsl.U64, dsl.I32) {
	return acc.Mul(dsl.Lit[uint64](31)).Add(dsl.Cast[uint64](x)), dsl.Cast[int32](dsl.Cast[uint32](acc).Xor(x))
}

func mapAccumStepGo(acc uint64, x uint32) (uint64, int32) {
	return acc*31 + uint64(x), int32(uint32(acc) ^ x)
}

// mapAccumKernel returns a kernel whose one thread writes the outputs of
// MapAccum of mapAccumStep from init over its input, and the final
// accumulator.
func mapAccumKernel(init uint64) *dsl.Kernel {
	k := dsl.NewKernel("mapAccum", 32)
	in := dsl.Input[uint32](k, "input")
	out, final := dsl.Output[int32](k, "output"), dsl.Output[uint64](k, "final")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
			acc := arrays.MapAccum(t, mapAccumStep, dsl.Lit(init), arrays.FromArray(in), out.Store)
			final.Store(t, dsl.N(0), acc)
		})
	})
	return k
}

// TestMapAccumAgainstGo checks MapAccum, whose accumulator, elements and
// outputs are of three types, against Haskell's mapAccumL written in Go,
// for every length from 0 to maxSeqLen: the outputs and the final
// accumulator.
func TestMapAccumAgainstGo(t *testing.T) {
	const init = 0x0123456789abcdef
	dev := runtime.CPU()
	fn := load(t, dev, mapAccumKernel(init))
	for n := range maxSeqLen + 1 {
		xs := randomInput(n, uint64(n)+1)
		outb, finalb := alloc[int32](t, dev, n), alloc[uint64](t, dev, 1)
		if err := dev.Launch(fn, runtime.LaunchConfig{}, toDevice(t, dev, xs), outb, finalb); err != nil {
			t.Fatal(err)
		}
		acc, want := uint64(init), make([]int32, n)
		for i, x := range xs {
			acc, want[i] = mapAccumStepGo(acc, x)
		}
		if d := differ("outputs", fromDevice(t, outb), want) + differ("final", fromDevice(t, finalb), []uint64{acc}); d != "" {
			t.Errorf("%d elements: %s", n, d)
		}
	}
}
