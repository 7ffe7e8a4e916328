package runtime_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// addConst is out[i] = in[i] + c over uint32, one thread per element of
// out: it reads past the end of in when in is shorter.
func addConst() *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	c := &ir.Var{Name: "c", T: ir.Uint32}
	i := &ir.Var{Name: "i", T: ir.Uint32}
	return &ir.Kernel{
		Name:    "add_const",
		Threads: 64,
		Params:  []ir.Param{{Array: in}, {Array: out}, {Scalar: c}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out},
			Body: []ir.Stmt{&ir.Store{Array: out, Index: i, Value: bin(ir.Add, &ir.Load{Array: in, Index: i}, c)}}}},
		Blocks: blocksFor(out, 64),
	}
}

// fuzzLimit is the memory limit of the fuzzed CPU device: small, so that
// random sizes reach it and every execution stays cheap.
const fuzzLimit = 1 << 14

// extremes are the integers a size or offset byte may stand for, beside
// the small values it is itself.
var extremes = []int{-1, -2, 1000, 1 << 12, fuzzLimit/4 + 1, 1 << 20, 1 << 31, 1 << 32, 1 << 40, 1 << 61, 1 << 62,
	math.MaxInt, math.MaxInt - 1, math.MinInt}

// fuzzInput reads the operations of FuzzHostAPI from the fuzzer's bytes.
type fuzzInput struct{ data []byte }

func (in *fuzzInput) byte() (byte, bool) {
	if len(in.data) == 0 {
		return 0, false
	}
	b := in.data[0]
	in.data = in.data[1:]
	return b, true
}

// int returns a small value or one of the extremes.
func (in *fuzzInput) int() int {
	b, _ := in.byte()
	if int(b) >= 256-len(extremes) {
		return extremes[int(b)-(256-len(extremes))]
	}
	return int(b)
}

// fuzzRoot is the model of one allocation.
type fuzzRoot struct {
	data  []uint32
	freed bool
}

// fuzzHandle is a buffer the fuzzer made and what it should be.
type fuzzHandle struct {
	buf    *runtime.Buffer[uint32]
	root   *fuzzRoot // nil for the zero and the nil Buffer
	off, n int
	view   bool
	bad    bool // an out-of-range view, or a view of a bad buffer
}

func (h *fuzzHandle) usable() bool { return h.root != nil && !h.root.freed && !h.bad }

func (h *fuzzHandle) model() []uint32 { return h.root.data[h.off : h.off+h.n] }

// fuzzState is the device under test and the model of its buffers.
type fuzzState struct {
	t       *testing.T
	dev     runtime.Device
	f       runtime.Function
	handles []*fuzzHandle
	live    int // bytes of live allocations
	next    uint32
}

func (s *fuzzState) pick(in *fuzzInput) *fuzzHandle {
	b, _ := in.byte()
	return s.handles[int(b)%len(s.handles)]
}

// values returns n distinct-looking values, never all zero.
func (s *fuzzState) values(n int) []uint32 {
	v := make([]uint32, n)
	for i := range v {
		s.next = s.next*1664525 + 1013904223
		v[i] = s.next | 1
	}
	return v
}

// check compares a handle's contents with the model when it is usable.
func (s *fuzzState) check(h *fuzzHandle, what string) {
	got, err := h.buf.ToSlice()
	switch {
	case !h.usable() && err == nil:
		s.t.Fatalf("%s: reading an unusable buffer succeeded", what)
	case h.usable() && err != nil:
		s.t.Fatalf("%s: reading: %v", what, err)
	case h.usable() && !slices.Equal(got, h.model()):
		s.t.Fatalf("%s: buffer reads %v, model %v", what, got, h.model())
	}
}

// expect fails the test when err does not match whether the call was
// valid.
func (s *fuzzState) expect(what string, valid bool, err error) {
	if valid && err != nil {
		s.t.Fatalf("%s: %v", what, err)
	}
	if !valid && err == nil {
		s.t.Fatalf("%s: succeeded, want an error", what)
	}
}

// overlap reports whether two usable handles share memory without being
// the same range.
func overlap(a, b *fuzzHandle) bool {
	if a.root != b.root || (a.off == b.off && a.n == b.n) {
		return false
	}
	return a.off < b.off+b.n && b.off < a.off+a.n
}

// The operations of FuzzHostAPI, chosen by a byte.
var fuzzOps = []func(s *fuzzState, in *fuzzInput){
	func(s *fuzzState, in *fuzzInput) { // Alloc, then fill with known values
		n := in.int()
		buf, err := runtime.Alloc[uint32](s.dev, n)
		valid := n >= 0 && n <= (fuzzLimit-s.live)/4
		s.expect("Alloc", valid, err)
		if !valid {
			if n >= 0 && !errors.Is(err, runtime.ErrOutOfMemory) {
				s.t.Fatalf("Alloc(%d) past the limit: %v, want ErrOutOfMemory", n, err)
			}
			return
		}
		s.live += 4 * n
		root := &fuzzRoot{data: s.values(n)}
		if err := buf.CopyFrom(root.data); err != nil {
			s.t.Fatal(err)
		}
		s.handles = append(s.handles, &fuzzHandle{buf: buf, root: root, n: n})
	},
	func(s *fuzzState, in *fuzzInput) { // Free
		h := s.pick(in)
		err := h.buf.Free()
		valid := h.usable() && !h.view
		s.expect("Free", valid, err)
		if valid {
			h.root.freed = true
			s.live -= 4 * len(h.root.data)
		}
	},
	func(s *fuzzState, in *fuzzInput) { // View
		h := s.pick(in)
		off, n := in.int(), in.int()
		v := &fuzzHandle{buf: h.buf.View(off, n), root: h.root, view: true}
		v.bad = h.bad || h.root == nil || off < 0 || n < 0 || off > h.n-n
		if !v.bad {
			v.off, v.n = h.off+off, n
		}
		if v.buf.Len() != v.n {
			s.t.Fatalf("View(%d, %d) of %d elements has %d, want %d", off, n, h.n, v.buf.Len(), v.n)
		}
		s.handles = append(s.handles, v)
		s.check(v, "a new view")
	},
	func(s *fuzzState, in *fuzzInput) { // CopyFrom, of the right length or not
		h := s.pick(in)
		d, _ := in.byte()
		n := max(h.n+int(d%3)-1, 0)
		src := s.values(n)
		err := h.buf.CopyFrom(src)
		valid := h.usable() && n == h.n
		s.expect("CopyFrom", valid, err)
		if valid {
			copy(h.model(), src)
		}
	},
	func(s *fuzzState, in *fuzzInput) { // ToSlice
		s.check(s.pick(in), "ToSlice")
	},
	func(s *fuzzState, in *fuzzInput) { // Fill
		h := s.pick(in)
		v := s.values(1)[0]
		err := h.buf.Fill(v)
		s.expect("Fill", h.usable(), err)
		if h.usable() {
			for i := range h.model() {
				h.model()[i] = v
			}
		}
	},
	func(s *fuzzState, in *fuzzInput) { // Launch out[i] = in[i] + c
		src, dst := s.pick(in), s.pick(in)
		c := s.values(1)[0]
		err := s.dev.Launch(s.f, runtime.LaunchConfig{}, src.buf, dst.buf, c)
		switch {
		case !src.usable() || !dst.usable():
			s.expect("Launch with an unusable buffer", false, err)
		case overlap(src, dst):
			// The result depends on the order threads run in: only resync.
			s.resync(dst)
		case int64(s.live)+runtime.CPULeastLaunchStateBytes(s.f, []int{src.n, dst.n, 0}) > fuzzLimit:
			if !errors.Is(err, runtime.ErrOutOfMemory) {
				s.t.Fatalf("Launch past the limit: %v, want ErrOutOfMemory", err)
			}
		case src.n < dst.n:
			s.expect("Launch reading past the input", false, err)
			s.resync(dst)
		default:
			s.expect("Launch", true, err)
			want := slices.Clone(src.model())
			for i := range dst.n {
				dst.model()[i] = want[i] + c
			}
		}
	},
}

// resync reads what a launch left in h's allocation into the model.
func (s *fuzzState) resync(h *fuzzHandle) {
	for _, o := range s.handles {
		if o.root == h.root && !o.view {
			got, err := o.buf.ToSlice()
			if err != nil {
				s.t.Fatal(err)
			}
			copy(h.root.data, got)
			return
		}
	}
	s.t.Fatal("a view without the allocation it was taken from")
}

// FuzzHostAPI runs random sequences of allocations, views, copies, fills,
// frees and launches on a CPU device with a small memory limit, against a
// model: valid calls must succeed and keep the data the model says, invalid
// ones must fail, and nothing may panic.
func FuzzHostAPI(f *testing.F) {
	f.Add([]byte{0, 10, 0, 5, 6, 2, 2, 4, 6, 4, 2, 3, 1, 2, 3})
	f.Add([]byte{0, 255, 0, 250, 0, 244, 0, 100, 2, 2, 255, 1, 1, 2, 1, 2})
	f.Add([]byte{0, 200, 0, 100, 6, 2, 3, 6, 3, 2, 4, 2, 1, 2, 5, 3})
	f.Add([]byte{2, 0, 0, 0, 3, 1, 0, 5, 1, 6, 0, 1, 1, 1})
	f.Add([]byte{0, 64, 2, 2, 3, 10, 6, 3, 2, 5, 4, 2, 1, 2})
	dev := runtime.CPU(runtime.CPUMemoryLimit(fuzzLimit))
	fn, err := dev.Load(addConst())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &fuzzState{t: t, dev: dev, f: fn, handles: []*fuzzHandle{
			{buf: &runtime.Buffer[uint32]{}},
			{buf: nil},
		}}
		defer func() { // give the device's memory back for the next input
			for _, h := range s.handles {
				if h.usable() && !h.view {
					_ = h.buf.Free()
					h.root.freed = true
				}
			}
		}()
		in := &fuzzInput{data: data}
		for range 64 {
			op, ok := in.byte()
			if !ok {
				break
			}
			fuzzOps[int(op)%len(fuzzOps)](s, in)
		}
		for _, h := range s.handles {
			if h.root != nil {
				s.check(h, "at the end")
			}
		}
	})
}
