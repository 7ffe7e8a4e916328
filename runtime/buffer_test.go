package runtime_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// devicesForTest returns the CPU device and, when there is one, the GPU.
func devicesForTest(t *testing.T) []runtime.Device {
	devices := []runtime.Device{runtime.CPU()}
	if g, err := runtime.Open(0); err == nil {
		t.Cleanup(func() { _ = g.Close() })
		g.SetCacheDir("")
		devices = append(devices, g)
	} else {
		t.Logf("no GPU, CPU only: %v", err)
	}
	return devices
}

func TestBufferRoundTripsAndViews(t *testing.T) {
	for _, d := range devicesForTest(t) {
		t.Run(d.Name(), func(t *testing.T) {
			b := must(runtime.FromSlice(d, []int32{1, 2, 3, 4, 5, 6}))(t)
			v := b.View(2, 3)
			if v.Len() != 3 {
				t.Fatalf("view length %d", v.Len())
			}
			if got := must(v.ToSlice())(t); !slices.Equal(got, []int32{3, 4, 5}) {
				t.Errorf("view reads %v", got)
			}
			if err := v.CopyFrom([]int32{-3, -4, -5}); err != nil {
				t.Fatal(err)
			}
			if err := v.View(1, 1).Fill(40); err != nil {
				t.Fatal(err)
			}
			if got := must(b.ToSlice())(t); !slices.Equal(got, []int32{1, 2, -3, 40, -5, 6}) {
				t.Errorf("after writing through views: %v", got)
			}
			if err := v.Free(); err == nil || !strings.Contains(err.Error(), "view") {
				t.Errorf("freeing a view: %v", err)
			}
			if err := b.CopyFrom([]int32{1}); err == nil {
				t.Error("copying 1 element into 6 succeeded")
			}
			if err := b.Free(); err != nil {
				t.Fatal(err)
			}
			if err := b.Free(); err == nil {
				t.Error("second Free succeeded")
			}
			if _, err := v.ToSlice(); err == nil {
				t.Error("reading a view of freed memory succeeded")
			}
		})
	}
}

func TestBufferBadViewsFailOnUse(t *testing.T) {
	b := must(runtime.Alloc[float64](runtime.CPU(), 4))(t)
	for _, r := range [][2]int{{-1, 1}, {3, 2}, {0, 5}, {2, -1}} {
		v := b.View(r[0], r[1])
		if _, err := v.ToSlice(); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("View(%d, %d).ToSlice: %v", r[0], r[1], err)
		}
		if err := v.View(0, 0).Fill(1); err == nil {
			t.Errorf("a view of View(%d, %d) is usable", r[0], r[1])
		}
	}
	if got := must(b.View(4, 0).ToSlice())(t); len(got) != 0 {
		t.Errorf("empty view at the end reads %v", got)
	}
}

func TestBufferFillEveryType(t *testing.T) {
	for _, d := range devicesForTest(t) {
		t.Run(d.Name(), func(t *testing.T) {
			checkFill(t, d, true)
			checkFill(t, d, int32(-7))
			checkFill(t, d, uint32(0xdeadbeef))
			checkFill(t, d, int64(-1))                  // equal 32-bit halves
			checkFill(t, d, uint64(0x0123456789abcdef)) // different halves
			checkFill(t, d, float32(math.Pi))
			checkFill(t, d, float64(-math.E))
		})
	}
}

func checkFill[T runtime.Scalar](t *testing.T, d runtime.Device, v T) {
	t.Helper()
	const n = 300000 // more than one staging block for 8-byte elements
	b := must(runtime.Alloc[T](d, n))(t)
	defer func() { _ = b.Free() }()
	if err := b.Fill(v); err != nil {
		t.Fatalf("Fill(%v): %v", v, err)
	}
	got := must(b.ToSlice())(t)
	for i, x := range got {
		if x != v {
			t.Fatalf("after Fill(%v) element %d is %v", v, i, x)
		}
	}
}

func TestAllocRejectsBadRequests(t *testing.T) {
	d := runtime.CPU()
	if _, err := d.Alloc(ir.NoType, 3); err == nil {
		t.Error("allocating NoType succeeded")
	}
	if _, err := runtime.Alloc[uint32](d, -1); err == nil {
		t.Error("allocating -1 elements succeeded")
	}
	empty := must(runtime.Alloc[uint32](d, 0))(t)
	if got := must(empty.ToSlice())(t); len(got) != 0 {
		t.Errorf("empty buffer reads %v", got)
	}
}

// TestBufferErr checks that Err says why a buffer cannot be used, with the
// error its other methods give, and nil for a usable buffer or view.
func TestBufferErr(t *testing.T) {
	for _, d := range devicesForTest(t) {
		t.Run(d.Name(), func(t *testing.T) {
			b := must(runtime.Alloc[uint32](d, 8))(t)
			var zero runtime.Buffer[uint32]
			var nilBuf *runtime.Buffer[uint32]
			freed := must(runtime.Alloc[uint32](d, 8))(t)
			if err := freed.Free(); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name string
				buf  *runtime.Buffer[uint32]
				want string // "" for usable
			}{
				{"whole buffer", b, ""},
				{"view", b.View(2, 6), ""},
				{"empty view at the end", b.View(8, 0), ""},
				{"view out of range", b.View(4, 5), "out of range"},
				{"view of a freed buffer", freed.View(0, 1), "freed"},
				{"freed buffer", freed, "freed"},
				{"zero Buffer", &zero, "zero Buffer"},
				{"nil *Buffer", nilBuf, "nil buffer"},
			} {
				err := c.buf.Err()
				if c.want == "" {
					if err != nil {
						t.Errorf("%s: Err() = %v, want nil", c.name, err)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: Err() = %v, want one saying %q", c.name, err, c.want)
					continue
				}
				if fill := c.buf.Fill(0); fill == nil || fill.Error() != err.Error() {
					t.Errorf("%s: Err() = %v but Fill gives %v", c.name, err, fill)
				}
			}
		})
	}
}
