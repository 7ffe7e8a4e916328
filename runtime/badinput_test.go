package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// badInput is one row of the catalogue: a call with bad input and the
// error it must return.
type badInput struct {
	name string
	call func() error
	is   error  // the error must wrap it (nil: no sentinel to check)
	want string // the error message must contain it
}

// harmless is a row for a call that returns no error: check reports how
// its result is wrong, and the row wants no error.
func harmless(name string, check func() error) badInput {
	return badInput{name: name, call: check}
}

// run calls the row's function in a goroutine, turning a panic into an
// error and a call that outlasts the deadline into a failure.
func (row badInput) run(t *testing.T) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		done <- row.call()
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no answer within 20s", row.name)
	}
	switch {
	case err != nil && strings.HasPrefix(err.Error(), "panic: "):
		t.Errorf("%s: %v", row.name, err)
	case row.want == "" && err != nil:
		t.Errorf("%s: %v", row.name, err)
	case row.want == "":
	case err == nil:
		t.Errorf("%s: no error, want one saying %q", row.name, row.want)
	case row.is != nil && !errors.Is(err, row.is):
		t.Errorf("%s: %v, want an error wrapping %v", row.name, err, row.is)
	case !strings.Contains(err.Error(), row.want):
		t.Errorf("%s: %v, want an error saying %q", row.name, err, row.want)
	}
}

// wantZero returns an error when got is not want.
func wantZero[T comparable](what string, got, want T) error {
	if got != want {
		return fmt.Errorf("%s is %v, want %v", what, got, want)
	}
	return nil
}

// TestBadInputCatalogue runs every bad input of the host API that the
// package knows of; no row may panic or hang.
func TestBadInputCatalogue(t *testing.T) {
	cpu := runtime.CPU()
	vadd := must(cpu.Load(vectorAdd()))(t)
	x := must(runtime.FromSlice(cpu, []float32{1, 2, 3}))(t)
	ints := must(runtime.FromSlice(cpu, []uint32{1, 2, 3}))(t)
	freed := must(runtime.Alloc[float32](cpu, 3))(t)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	other := runtime.CPU()
	otherFn := must(other.Load(vectorAdd()))(t)
	otherBuf := must(runtime.Alloc[float32](other, 3))(t)
	otherStream := must(other.NewStream())(t)
	closedStream := must(cpu.NewStream())(t)
	if err := closedStream.Close(); err != nil {
		t.Fatal(err)
	}
	closedDev := runtime.CPU()
	closedFn := must(closedDev.Load(vectorAdd()))(t)
	closedBuf := must(runtime.Alloc[float32](closedDev, 3))(t)
	if err := closedDev.Close(); err != nil {
		t.Fatal(err)
	}
	small := runtime.CPU(runtime.CPUMemoryLimit(4096))
	smallFn := must(small.Load(vectorAdd()))(t)
	smallBuf := must(runtime.Alloc[float32](small, 300))(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	loop := must(cpu.Load(longLoop()))(t)
	var (
		zero    runtime.Buffer[float32]
		nilBuf  *runtime.Buffer[float32]
		zeroMem runtime.Mem
		nilMem  *runtime.Mem
		zeroGPU = new(runtime.GPU)
		nilGPU  *runtime.GPU
	)
	launch := func(d runtime.Device, f runtime.Function, cfg runtime.LaunchConfig, args ...any) func() error {
		return func() error { return d.Launch(f, cfg, args...) }
	}
	allocErr := func(d runtime.Device, t ir.Type, n int) func() error {
		return func() error { _, err := d.Alloc(t, n); return err }
	}
	errOf := func(_ any, err error) error { return err }

	aligned := must(cpu.Load(alignedCopy()))(t)
	words := must(runtime.Alloc[uint32](cpu, 12))(t)
	rows := []badInput{
		// Alignment.
		{"aligned parameter given a view 4 bytes in", launch(cpu, aligned, runtime.LaunchConfig{}, words.View(1, 4),
			words.View(4, 4)), runtime.ErrMisaligned, "parameter in is declared aligned to 16 bytes"},
		{"aligned parameter given a view 8 bytes in", launch(cpu, aligned, runtime.LaunchConfig{}, words.View(0, 4),
			words.View(6, 4)), runtime.ErrMisaligned, "parameter out is declared aligned to 16 bytes"},
		// Sizes.
		{"CPU Alloc[uint32](2^62): 2^64 bytes", func() error { return errOf(runtime.Alloc[uint32](cpu, 1<<62)) }, runtime.ErrOutOfMemory, "overflows"},
		{"CPU Alloc[uint32](2^61): 2^63 bytes", func() error { return errOf(runtime.Alloc[uint32](cpu, 1<<61)) }, runtime.ErrOutOfMemory, "overflows"},
		{"CPU Alloc[float64](MaxInt)", func() error { return errOf(runtime.Alloc[float64](cpu, math.MaxInt)) }, runtime.ErrOutOfMemory, "overflows"},
		{"CPU Alloc[uint64](2^40): more than the machine", func() error { return errOf(runtime.Alloc[uint64](cpu, 1<<40)) }, runtime.ErrOutOfMemory, "CPUMemoryLimit"},
		{"CPU allocations past the device's limit", func() error { return errOf(runtime.Alloc[float32](small, 1000)) }, runtime.ErrOutOfMemory, "may hold 4096"},
		{"CPU Alloc of -1 elements", func() error { return errOf(runtime.Alloc[uint32](cpu, -1)) }, nil, "negative length"},
		{"CPU Alloc of NoType", allocErr(cpu, ir.NoType, 1), nil, "not a scalar type"},
		{"CPU Alloc of type 99", allocErr(cpu, ir.Type(99), 1), nil, "not a scalar type"},
		{"unopened GPU Alloc[uint32](2^62)", allocErr(zeroGPU, ir.Uint32, 1<<62), runtime.ErrOutOfMemory, "overflows"},
		{"nil GPU Alloc[uint64](2^61)", allocErr(nilGPU, ir.Uint64, 1<<61), runtime.ErrOutOfMemory, "overflows"},
		{"launch whose evaluator state passes the limit", launch(small, smallFn, runtime.LaunchConfig{}, smallBuf, smallBuf, smallBuf), runtime.ErrOutOfMemory, "evaluator's state"},

		// Views and copies.
		{"View(-1, 1)", func() error { return errOf(x.View(-1, 1).ToSlice()) }, nil, "out of range"},
		{"View(2, 2) of 3", func() error { return errOf(x.View(2, 2).ToSlice()) }, nil, "out of range"},
		{"View(1, -1)", func() error { return x.View(1, -1).Fill(0) }, nil, "out of range"},
		{"View(MaxInt, 1)", func() error { return errOf(x.View(math.MaxInt, 1).ToSlice()) }, nil, "out of range"},
		{"View(1, MaxInt)", func() error { return errOf(x.View(1, math.MaxInt).ToSlice()) }, nil, "out of range"},
		{"View(MinInt, MaxInt)", func() error { return x.View(math.MinInt, math.MaxInt).CopyFrom(nil) }, nil, "out of range"},
		{"view of a view past its end", func() error { return errOf(x.View(1, 2).View(math.MaxInt-1, 2).ToSlice()) }, nil, "out of range"},
		{"view of a bad view", func() error { return x.View(4, 0).View(0, 0).Fill(0) }, nil, "out of range"},
		{"bad view as a launch argument", launch(cpu, vadd, runtime.LaunchConfig{}, x, x, x.View(2, 5)), nil, "out of range"},
		{"CopyFrom of 2 into 3", func() error { return x.CopyFrom([]float32{1, 2}) }, nil, "the slice has 2"},
		{"CopyTo of 3 into 4", func() error { return x.CopyTo(make([]float32, 4)) }, nil, "the slice has 4"},
		{"CopyFrom into a freed buffer", func() error { return freed.CopyFrom([]float32{1, 2, 3}) }, nil, "freed"},
		{"Fill of a freed buffer", func() error { return freed.Fill(1) }, nil, "freed"},
		{"FillOn another device's stream", func() error { return x.FillOn(otherStream, 1) }, nil, "not one of its streams"},
		{"FillOn a closed stream", func() error { return x.FillOn(closedStream, 1) }, nil, "has been closed"},
		{"FillOn of a freed buffer", func() error { return freed.FillOn(nil, 1) }, nil, "freed"},
		{"Free twice", freed.Free, nil, "freed"},
		{"Free of a view", func() error { return x.View(0, 1).Free() }, nil, "view"},

		// Zero and nil values.
		harmless("zero Buffer Len", func() error { return wantZero("Len", zero.Len(), 0) }),
		harmless("zero Buffer Device", func() error { return wantZero("Device", zero.Device(), nil) }),
		harmless("zero Buffer Mem", func() error { return wantZero("Mem", zero.Mem(), nil) }),
		{"zero Buffer CopyFrom", func() error { return zero.CopyFrom(nil) }, nil, "zero Buffer"},
		{"zero Buffer CopyTo", func() error { return zero.CopyTo(nil) }, nil, "zero Buffer"},
		{"zero Buffer ToSlice", func() error { return errOf(zero.ToSlice()) }, nil, "zero Buffer"},
		{"zero Buffer View", func() error { return errOf(zero.View(0, 0).ToSlice()) }, nil, "zero Buffer"},
		{"zero Buffer Fill", func() error { return zero.Fill(1) }, nil, "zero Buffer"},
		{"zero Buffer Free", zero.Free, nil, "zero Buffer"},
		{"&Buffer{} as a launch argument", launch(cpu, vadd, runtime.LaunchConfig{}, x, &runtime.Buffer[float32]{}, x), nil, "zero Buffer"},
		harmless("nil *Buffer Len", func() error { return wantZero("Len", nilBuf.Len(), 0) }),
		harmless("nil *Buffer Device", func() error { return wantZero("Device", nilBuf.Device(), nil) }),
		harmless("nil *Buffer Mem", func() error { return wantZero("Mem", nilBuf.Mem(), nil) }),
		{"nil *Buffer CopyFrom", func() error { return nilBuf.CopyFrom(nil) }, nil, "nil buffer"},
		{"nil *Buffer CopyTo", func() error { return nilBuf.CopyTo(nil) }, nil, "nil buffer"},
		{"nil *Buffer ToSlice", func() error { return errOf(nilBuf.ToSlice()) }, nil, "nil buffer"},
		{"nil *Buffer View", func() error { return nilBuf.View(0, 0).Fill(0) }, nil, "nil buffer"},
		{"nil *Buffer Fill", func() error { return nilBuf.Fill(0) }, nil, "nil buffer"},
		{"nil *Buffer Free", nilBuf.Free, nil, "nil buffer"},
		{"nil *Buffer as a launch argument", launch(cpu, vadd, runtime.LaunchConfig{}, x, x, nilBuf), nil, "nil buffer"},
		{"untyped nil as a launch argument", launch(cpu, vadd, runtime.LaunchConfig{}, x, nil, x), nil, "got <nil>"},
		harmless("nil *Mem Len", func() error { return wantZero("Len", nilMem.Len(), 0) }),
		harmless("nil *Mem Elem", func() error { return wantZero("Elem", nilMem.Elem(), ir.NoType) }),
		harmless("nil *Mem Device", func() error { return wantZero("Device", nilMem.Device(), nil) }),
		{"nil *Mem Free", nilMem.Free, nil, "not allocated by a Device"},
		{"zero Mem Free", zeroMem.Free, nil, "not allocated by a Device"},
		{"Alloc on a nil Device", func() error { return errOf(runtime.Alloc[uint32](nil, 1)) }, nil, "nil Device"},
		{"FromSlice on a nil Device", func() error { return errOf(runtime.FromSlice[int64](nil, []int64{1})) }, nil, "nil Device"},
		{"Alloc on a nil *GPU", func() error { return errOf(runtime.Alloc[uint32](nilGPU, 1)) }, nil, "not opened"},
		{"FromSlice on an unopened GPU", func() error { return errOf(runtime.FromSlice(zeroGPU, []float32{1})) }, nil, "not opened"},

		// Launches.
		{"CPU Launch(nil)", launch(cpu, nil, runtime.LaunchConfig{}, x, x, x), nil, "nil Function"},
		{"unopened GPU Launch(nil)", launch(zeroGPU, nil, runtime.LaunchConfig{}), nil, "nil Function"},
		{"nil GPU Launch(nil)", launch(nilGPU, nil, runtime.LaunchConfig{}), nil, "nil Function"},
		{"unopened GPU Launch of a CPU function", launch(zeroGPU, vadd, runtime.LaunchConfig{}, x, x, x), nil, "not opened"},
		{"launch of another device's function", launch(cpu, otherFn, runtime.LaunchConfig{}, x, x, x), nil, "not loaded there"},
		{"launch with another device's buffer", launch(cpu, vadd, runtime.LaunchConfig{}, x, x, otherBuf), nil, "the launch on"},
		{"launch on another device's stream", launch(cpu, vadd, runtime.LaunchConfig{Stream: otherStream}, x, x, x), nil, "not one of its streams"},
		{"launch on a closed stream", launch(cpu, vadd, runtime.LaunchConfig{Stream: closedStream}, x, x, x), nil, "has been closed"},
		{"launch on a closed device", launch(closedDev, closedFn, runtime.LaunchConfig{}, closedBuf, closedBuf, closedBuf), nil, "has been closed"},
		{"launch with 2 of 3 arguments", launch(cpu, vadd, runtime.LaunchConfig{}, x, x), nil, "takes 3 arguments, got 2"},
		{"launch with a scalar for a buffer", launch(cpu, vadd, runtime.LaunchConfig{}, x, float32(1), x), nil, "want a buffer of float32"},
		{"launch with a buffer of the wrong type", launch(cpu, vadd, runtime.LaunchConfig{}, x, ints, x), nil, "got a buffer of uint32"},
		{"launch with a freed buffer", launch(cpu, vadd, runtime.LaunchConfig{}, x, x, freed), nil, "freed"},
		{"launch with a string", launch(cpu, vadd, runtime.LaunchConfig{}, x, x, "out"), nil, "got string"},
		{"launch with -1 blocks", launch(cpu, vadd, runtime.LaunchConfig{Blocks: -1}, x, x, x), nil, "-1 blocks"},
		{"launch with a cancelled context", launch(cpu, vadd, runtime.LaunchConfig{Context: cancelled}, x, x, x), context.Canceled, "vadd"},
		{"launch whose context ends within its block", func() error {
			soon, stop := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer stop()
			return cpu.Launch(loop, runtime.LaunchConfig{Context: soon}, ints)
		}, context.DeadlineExceeded, "long_loop cancelled in block 0 of 1"},
		{"CPU Load(nil)", func() error { return errOf(cpu.Load(nil)) }, nil, "no kernel"},
		{"CPU Load of 0 threads", func() error {
			k := vectorAdd()
			k.Threads = 0
			return errOf(cpu.Load(k))
		}, nil, "threads"},

		// An unopened GPU.
		harmless("unopened GPU Name", func() error { return wantZero("Name", zeroGPU.Name(), "unopened GPU") }),
		harmless("nil GPU Name", func() error { return wantZero("Name", nilGPU.Name(), "unopened GPU") }),
		harmless("nil GPU CacheStats", func() error { return wantZero("CacheStats", nilGPU.CacheStats(), runtime.CacheStats{}) }),
		harmless("unopened GPU CacheDir", func() error { zeroGPU.SetCacheDir("x"); return wantZero("CacheDir", zeroGPU.CacheDir(), "") }),
		{"unopened GPU Load", func() error { return errOf(zeroGPU.Load(vectorAdd())) }, nil, "not opened"},
		{"nil GPU LoadCUDA", func() error { return errOf(nilGPU.LoadCUDA("", "k", nil, 0, 32)) }, nil, "not opened"},
		{"unopened GPU Properties", func() error { return errOf(zeroGPU.Properties()) }, nil, "not opened"},
		{"nil GPU MemInfo", func() error { _, _, err := nilGPU.MemInfo(); return err }, nil, "not opened"},
		{"unopened GPU Synchronize", zeroGPU.Synchronize, nil, "not opened"},
		{"unopened GPU NewStream", func() error { return errOf(zeroGPU.NewStream()) }, nil, "not opened"},
		{"nil GPU NewEvent", func() error { return errOf(nilGPU.NewEvent()) }, nil, "not opened"},
		{"unopened GPU Close", zeroGPU.Close, nil, "not opened"},
		{"nil GPU Close", nilGPU.Close, nil, "not opened"},

		// Streams and events.
		{"closing a stream twice", closedStream.Close, nil, "has been closed"},
		{"timing from a nil event", func() error {
			e := must(cpu.NewEvent())(t)
			return errOf(e.Since(nil))
		}, nil, "nil Event"},
		{"timing unrecorded events", func() error {
			e := must(cpu.NewEvent())(t)
			return errOf(e.Since(must(cpu.NewEvent())(t)))
		}, nil, "not been recorded"},
		{"recording on another device's stream", func() error { return must(cpu.NewEvent())(t).Record(otherStream) }, nil, "not one of its streams"},
	}
	for _, row := range rows {
		row.run(t)
	}
}
