package launch_test

import (
	"errors"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/gen/launch"
	_ "github.com/obsidian-go/obsidian/internal/golden" // accept -update like every test binary
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// addOne returns a kernel adding 1 (or 2) to every element of in.
func addOne(add uint32) func() []*dsl.Kernel {
	return func() []*dsl.Kernel {
		k := dsl.NewKernel("addOne", 64)
		in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
		k.Body(func(g *dsl.Grid) {
			g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i).Add(dsl.N(add))) })
		})
		return []*dsl.Kernel{k}
	}
}

// kernelOf returns a launch.Kernel for addOne(1), built from kernels.
func kernelOf(t *testing.T, kernels func() []*dsl.Kernel) *launch.Kernel {
	k, err := addOne(1)()[0].Build()
	if err != nil {
		t.Fatal(err)
	}
	src, compiled, err := codegen.CUDA(k)
	if err != nil {
		t.Fatal(err)
	}
	return &launch.Kernel{Name: "addOne", CUDA: src, Signature: runtime.SignatureOf(compiled), Threads: 64,
		SharedBytes: compiled.SharedBytes, Kernels: kernels}
}

func blocks() (int, error) { return 3, nil }

func TestKernelLaunchesOnCPUOncePerDevice(t *testing.T) {
	k := kernelOf(t, addOne(1))
	dev := runtime.CPU()
	in, _ := runtime.FromSlice(dev, []uint32{1, 2, 3})
	out, _ := runtime.Alloc[uint32](dev, 3)
	if err := k.Launch(dev, runtime.LaunchConfig{}, blocks, in, out); err != nil {
		t.Fatal(err)
	}
	got, _ := out.ToSlice()
	if got[0] != 2 || got[1] != 3 || got[2] != 4 {
		t.Errorf("got %v", got)
	}
	// The cache holds functions until the garbage collector drops them:
	// no collection between the loads.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	f1, _ := k.Function(dev)
	f2, _ := k.Function(dev)
	f3, _ := k.Function(runtime.CPU())
	if f1 != f2 || f1 == f3 {
		t.Error("functions are not loaded once per device")
	}
}

func TestKernelRejectsStaleIRAndNil(t *testing.T) {
	dev := runtime.CPU()
	in, _ := runtime.FromSlice(dev, []uint32{1})
	out, _ := runtime.Alloc[uint32](dev, 1)
	err := kernelOf(t, addOne(2)).Launch(dev, runtime.LaunchConfig{}, blocks, in, out)
	if err == nil || !strings.Contains(err.Error(), "run go generate") {
		t.Errorf("stale kernel: %v", err)
	}
	err = kernelOf(t, func() []*dsl.Kernel { return nil }).Launch(dev, runtime.LaunchConfig{}, blocks, in, out)
	if err == nil || !strings.Contains(err.Error(), "no kernel of that name") {
		t.Errorf("missing kernel: %v", err)
	}
	var none *runtime.Buffer[uint32]
	if err := kernelOf(t, addOne(1)).Launch(dev, runtime.LaunchConfig{}, blocks, in, none); err == nil {
		t.Error("nil buffer accepted")
	}
	err = kernelOf(t, addOne(1)).Launch(dev, runtime.LaunchConfig{}, nil, in, out)
	if !errors.Is(err, launch.ErrBlocksUnknown) {
		t.Errorf("no blocks function: %v", err)
	}
	var noGPU *runtime.GPU
	for _, d := range []runtime.Device{nil, noGPU} {
		if err := kernelOf(t, addOne(1)).Launch(d, runtime.LaunchConfig{}, blocks, in, out); err == nil || !strings.Contains(err.Error(), "no device") {
			t.Errorf("launch on device %#v: %v, want an error saying there is no device", d, err)
		}
	}
}

func TestOps(t *testing.T) {
	var f launch.Fault
	if launch.Binary[int32](&f, ir.Div, int32(7), -2) != -3 || launch.Binary[int32](&f, ir.Rem, int32(-7), 2) != -1 ||
		f.Err() != nil {
		t.Error("Div or Rem wrong")
	}
	if launch.Binary[uint32](&f, ir.Div, uint32(7), 0) != 0 || f.Err() == nil {
		t.Error("division by zero not a fault")
	}
	f = launch.Fault{}
	if launch.Binary[int32](&f, ir.Div, int32(math.MinInt32), -1); f.Err() == nil {
		t.Error("MinInt32 / -1 not a fault")
	}
	f = launch.Fault{}
	if launch.Binary[uint32](&f, ir.Div, uint32(1<<31), math.MaxUint32) != 0 || f.Err() != nil {
		t.Error("unsigned division by the largest value")
	}
	if launch.Binary[uint32](&f, ir.Shl, uint32(1), 31) != 1<<31 || launch.Binary[int32](&f, ir.Shr, int32(-8), 1) != -4 ||
		f.Err() != nil {
		t.Error("shifts wrong")
	}
	if launch.Binary[uint64](&f, ir.Shl, uint64(1), 64); f.Err() == nil {
		t.Error("shift by 64 not a fault")
	}
	f = launch.Fault{}
	if launch.Binary[bool](&f, ir.Lt, int32(-1), 0) != true || f.Err() != nil {
		t.Error("comparison wrong")
	}
	if launch.Binary[bool](&f, ir.Lt, true, false); f.Err() == nil {
		t.Error("an operator undefined on its operands' type is not a fault")
	}
	if launch.Convert[int32](float32(3e9)) != math.MaxInt32 || launch.Convert[uint32](-5.0) != 0 ||
		launch.Convert[int64](math.NaN()) != 0 || launch.Convert[int32](-2.9) != -2 {
		t.Error("Convert does not saturate and truncate")
	}
	f = launch.Fault{}
	if launch.Binary[float64](&f, ir.Min, math.NaN(), 1) != 1 ||
		!math.Signbit(launch.Binary[float64](&f, ir.Min, 0, math.Copysign(0, -1))) {
		t.Error("Min is not C's fmin")
	}
	if launch.Blocks(uint32(0)) != 1 || launch.Blocks(int32(-5)) != 1 || launch.Blocks(uint64(1)<<40) != 1<<31-1 {
		t.Error("Blocks does not clamp")
	}
}
