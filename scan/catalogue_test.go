package scan_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// TestBadInputCatalogue checks that every bad input gives an error that
// names what was wrong, never a panic or a hang.
func TestBadInputCatalogue(t *testing.T) {
	dev := runtime.CPU()
	buf := func(n int) *runtime.Buffer[uint32] {
		b, err := runtime.Alloc[uint32](dev, n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Free() })
		return b
	}
	state := func(n int) *runtime.Buffer[uint64] {
		b, err := runtime.Alloc[uint64](dev, n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Free() })
		return b
	}
	sum, err := scan.New(dev, dsl.U32.Add, 0, scan.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	defer sum.Close()
	rows := []struct {
		name string
		run  func() error
		is   error
		want string
	}{
		{"out shorter than in", func() error { return sum.Run(buf(10), buf(9)) }, scan.ErrLengthMismatch,
			"in has 10 elements, out 9"},
		{"ExclusiveSum of mismatched lengths", func() error { return scan.ExclusiveSum(dev, buf(3), buf(4)) },
			scan.ErrLengthMismatch, "in has 3 elements, out 4"},
		{"nil out", func() error { return sum.Run(buf(3), nil) }, nil, "nil in or out buffer"},
		{"n past the 32-bit limit", func() error { _, err := scan.StateLen(1 << 32); return err }, scan.ErrTooLong,
			"4294967296 elements"},
		{"negative n", func() error { _, err := scan.StateLen(-1); return err }, scan.ErrTooLong, "-1 elements"},
		{"state too small", func() error {
			return sum.RunWithState(buf(3*arrays.DeviceScanTile), buf(3*arrays.DeviceScanTile), state(3))
		},
			scan.ErrStateTooSmall, "3 words, want 4"},
		{"nil state", func() error { return sum.RunWithState(buf(5), buf(5), nil) }, scan.ErrStateTooSmall,
			"nil, want 2 words"},
		{"unknown kind", func() error { _, err := scan.New(dev, dsl.U32.Add, 0, scan.Kind(7)); return err }, nil,
			"unknown kind Kind(7)"},
		{"nil operator", func() error { _, err := scan.New[uint32](dev, nil, 0, scan.Inclusive); return err }, nil,
			"nil operator"},
		{"nil device", func() error { _, err := scan.New(nil, dsl.U32.Add, 0, scan.Inclusive); return err }, nil,
			"nil device"},
		{"64-bit elements", func() error {
			_, err := arrays.DeviceScanKernel("scan64", dsl.Exp[uint64].Add, dsl.Lit[uint64](0), false).Build()
			return err
		}, nil, "DeviceScanKernel of uint64 elements"},
		{"a nil operator in the kernel", func() error {
			_, err := arrays.DeviceScanKernel[uint32]("scanNil", nil, dsl.N(0), false).Build()
			return err
		}, nil, "DeviceScanKernel of a nil operator"},
		{"threads per block not a multiple of 32", func() error {
			_, err := scan.NewShaped(dev, dsl.U32.Add, 0, scan.Inclusive, arrays.DeviceScanShape{Threads: 100, PerThread: 8})
			return err
		}, nil, "100 threads per block, want a multiple of 32"},
		{"more than 1024 threads per block", func() error {
			_, err := scan.NewShaped(dev, dsl.U32.Add, 0, scan.Inclusive, arrays.DeviceScanShape{Threads: 2048, PerThread: 8})
			return err
		}, nil, "2048 threads per block"},
		{"no elements per thread", func() error {
			_, err := scan.NewShaped(dev, dsl.U32.Add, 0, scan.Inclusive, arrays.DeviceScanShape{Threads: 128})
			return err
		}, nil, "0 elements per thread, want 1 to 32"},
		{"a bad shape in the kernel", func() error {
			shape := arrays.DeviceScanShape{Threads: 256, PerThread: 33}
			_, err := arrays.DeviceScanKernelShaped("scanBadShape", dsl.U32.Add, dsl.N(0), false, shape).Build()
			return err
		}, nil, "DeviceScanKernelShaped: device scan shape: 33 elements per thread"},
		{"vector rows of elements per thread not a multiple of 4", func() error {
			_, err := scan.NewShaped(dev, dsl.U32.Add, 0, scan.Inclusive,
				arrays.DeviceScanShape{Threads: 128, PerThread: 6, Vector: true})
			return err
		}, nil, "vector rows of 6 elements per thread, want a multiple of 4"},
		{"vector rows and warp rows", func() error {
			_, err := scan.NewShaped(dev, dsl.U32.Add, 0, scan.Inclusive,
				arrays.DeviceScanShape{Threads: 128, PerThread: 8, Vector: true, WarpRows: true})
			return err
		}, nil, "vector rows and warp rows together"},
		{"vector-row kernel launched on a view 4 bytes in", func() error {
			shape := arrays.DeviceScanShape{Threads: 32, PerThread: 4, Vector: true}
			k, err := arrays.DeviceScanKernelShaped("scanVectorView", dsl.U32.Add, dsl.N(0), false, shape).Build()
			if err != nil {
				return err
			}
			fn, err := dev.Load(k)
			if err != nil {
				return err
			}
			in := buf(300)
			return dev.Launch(fn, runtime.LaunchConfig{Blocks: 2}, in.View(1, 256), buf(256), state(3), uint32(1),
				uint64(0))
		}, runtime.ErrMisaligned, "parameter in is declared aligned to 16 bytes"},
		{"state too small for a shape's tiles", func() error {
			s, err := scan.NewShaped(dev, dsl.U32.Add, 0, scan.Inclusive, arrays.DeviceScanShape{Threads: 32, PerThread: 1})
			if err != nil {
				return err
			}
			defer s.Close()
			return s.RunWithState(buf(65), buf(65), state(3))
		}, scan.ErrStateTooSmall, "3 words, want 4"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				defer func() {
					if p := recover(); p != nil {
						done <- fmt.Errorf("panic: %v", p)
					}
				}()
				done <- r.run()
			}()
			select {
			case err := <-done:
				switch {
				case err == nil:
					t.Fatalf("no error, want one mentioning %q", r.want)
				case strings.HasPrefix(err.Error(), "panic: "):
					t.Fatal(err)
				case r.is != nil && !errors.Is(err, r.is):
					t.Errorf("error %v is not %v", err, r.is)
				case !strings.Contains(err.Error(), r.want):
					t.Errorf("error %q does not mention %q", err, r.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("no answer within 30 s")
			}
		})
	}
}
