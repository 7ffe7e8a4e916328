package runtime_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// alignedCopy is out[i] = in[i] + 1 with both arrays declared aligned to 16
// bytes.
func alignedCopy() *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	in.Align, out.Align = 16, 16
	i := &ir.Var{Name: "i", T: ir.Uint32}
	return &ir.Kernel{
		Name:    "alignedCopy",
		Threads: 256,
		Params:  []ir.Param{{Array: in}, {Array: out}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out},
			Body: []ir.Stmt{&ir.Store{Array: out, Index: i,
				Value: bin(ir.Add, &ir.Load{Array: in, Index: i}, &ir.Const{Value: ir.UintValue(ir.Uint32, 1)})}}}},
		Blocks: blocksFor(out, 256),
	}
}

// checkAlignedLaunches launches alignedCopy on dev with views of one buffer
// at every element offset from 0 to 8: those at a multiple of 4 elements
// (16 bytes) must run and compute out[i] = in[i] + 1; the others must
// fail with ErrMisaligned naming the parameter and the alignment.
func checkAlignedLaunches(t *testing.T, dev runtime.Device) {
	const n = 64
	f := must(dev.Load(alignedCopy()))(t)
	xs := make([]uint32, n+8)
	for i := range xs {
		xs[i] = rand.Uint32()
	}
	in := must(runtime.FromSlice(dev, xs))(t)
	defer in.Free()
	out := must(runtime.Alloc[uint32](dev, n+8))(t)
	defer out.Free()
	for off := range 9 {
		for _, misaligned := range []string{"in", "out"} {
			inOff, outOff := 0, 0
			if misaligned == "in" {
				inOff = off
			} else {
				outOff = off
			}
			err := dev.Launch(f, runtime.LaunchConfig{}, in.View(inOff, n), out.View(outOff, n))
			if off%4 != 0 {
				if !errors.Is(err, runtime.ErrMisaligned) || !strings.Contains(err.Error(),
					"parameter "+misaligned+" is declared aligned to 16 bytes") {
					t.Errorf("%s at element offset %d: %v, want ErrMisaligned naming %s and 16 bytes", misaligned, off,
						err, misaligned)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s at element offset %d: %v", misaligned, off, err)
			}
			got := must(out.View(outOff, n).ToSlice())(t)
			for i, y := range got {
				if want := xs[inOff+i] + 1; y != want {
					t.Fatalf("%s at element offset %d: out[%d] = %d, want %d", misaligned, off, i, y, want)
				}
			}
		}
	}
}

// TestAlignedParametersAreChecked checks on the CPU device that a launch
// refuses views that break a parameter's declared alignment.
func TestAlignedParametersAreChecked(t *testing.T) { checkAlignedLaunches(t, runtime.CPU()) }

// TestGPUAlignedParametersAreChecked is TestAlignedParametersAreChecked on
// the GPU, where the aligned kernel really runs.
func TestGPUAlignedParametersAreChecked(t *testing.T) { checkAlignedLaunches(t, gpuForTest(t)) }
