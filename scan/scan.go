package scan

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// Kind says which scan a Scan computes.
type Kind uint8

// The kinds of scan.
const (
	// Inclusive: out[i] = in[0] op ... op in[i].
	Inclusive Kind = iota + 1
	// Exclusive: out[i] = identity op in[0] op ... op in[i-1].
	Exclusive
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Inclusive:
		return "inclusive"
	case Exclusive:
		return "exclusive"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MaxLen is the longest input a Scan takes: array lengths are 32-bit.
const MaxLen = math.MaxUint32

// Element is an element type a Scan takes: 32 bits, which a status word
// holds beside its flag.
type Element interface{ int32 | uint32 | float32 }

// ErrTooLong is the error of an input longer than MaxLen.
var ErrTooLong = errors.New("scan: input longer than 2^32-1 elements")

// ErrLengthMismatch is the error of an out buffer whose length is not the
// input's.
var ErrLengthMismatch = errors.New("scan: out and in have different lengths")

// ErrStateTooSmall is the error of a state buffer with fewer words than
// StateLen asks for.
var ErrStateTooSmall = errors.New("scan: state buffer too small")

// Scan is a device-wide scan under one operator, loaded on one device.
type Scan[T Element] struct {
	dev  runtime.Device
	kind Kind
	// shapeFor returns the shape of a scan of n elements whose views are
	// aligned to 16 bytes; see run for those that are not.
	shapeFor func(n uint32) arrays.DeviceScanShape
	// kernels are the kernels loaded so far, by shape.
	kernels map[arrays.DeviceScanShape]runtime.Function
	// build builds the kernel of a shape.
	build func(arrays.DeviceScanShape) (*ir.Kernel, error)
	state *runtime.Buffer[uint64] // grown as needed
	// epoch is the epoch of the next Run's launch on state, or 0 when
	// state must be zeroed first: it is new, its epochs are spent (past
	// arrays.MaxEpoch), or a launch on it failed and left it unknown.
	epoch uint32
	// base is the tile counter's value in state: the tiles of the
	// launches since it was zeroed.
	base uint64
	// launch is the device's Launch (a test makes it fail).
	launch func(runtime.Function, runtime.LaunchConfig, ...any) error
}

// New loads, on dev, the scan of kind under op, an associative operator
// (need not be commutative) whose identity is identity. Its blocks have,
// for each input length, the shape of arrays.DeviceScanShapeFor with
// Vector rows (without them for views not aligned to 16 bytes, see Run).
func New[T Element](dev runtime.Device, op arrays.Op[T], identity T, kind Kind) (*Scan[T], error) {
	return newScan(dev, op, identity, kind, vectorShapeFor, vectorShapeFor(0), vectorShapeFor(MaxLen))
}

// vectorShapeFor returns the shape of New's scan of n elements whose views
// are aligned to 16 bytes.
func vectorShapeFor(n uint32) arrays.DeviceScanShape {
	shape := arrays.DeviceScanShapeFor(n)
	shape.Vector = true
	return shape
}

// NewShaped is New with blocks of the given shape, which must be valid
// (arrays.DeviceScanShape.Check), for every input length. Every shape
// computes the same scan.
func NewShaped[T Element](dev runtime.Device, op arrays.Op[T], identity T, kind Kind,
	shape arrays.DeviceScanShape) (*Scan[T], error) {
	if err := shape.Check(); err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	return newScan(dev, op, identity, kind, func(uint32) arrays.DeviceScanShape { return shape }, shape)
}

// newScan returns the Scan whose shapes shapeFor gives, with the kernels
// of the shapes given loaded, so that an operator the device cannot
// compile is New's error.
func newScan[T Element](dev runtime.Device, op arrays.Op[T], identity T, kind Kind,
	shapeFor func(uint32) arrays.DeviceScanShape, load ...arrays.DeviceScanShape) (*Scan[T], error) {
	if dev == nil {
		return nil, errors.New("scan: New on a nil device")
	}
	if kind != Inclusive && kind != Exclusive {
		return nil, fmt.Errorf("scan: unknown kind %v: want Inclusive or Exclusive", kind)
	}
	if op == nil {
		return nil, errors.New("scan: New with a nil operator: give a function such as dsl.U32.Add")
	}
	s := &Scan[T]{dev: dev, kind: kind, shapeFor: shapeFor, kernels: map[arrays.DeviceScanShape]runtime.Function{},
		launch: dev.Launch}
	s.build = func(shape arrays.DeviceScanShape) (*ir.Kernel, error) {
		name := fmt.Sprintf("deviceScan%s_%v", kind, dsl.TypeOf[T]())
		if shape != arrays.DefaultDeviceScanShape {
			name += "_" + strings.ReplaceAll(shape.String(), "/", "_")
		}
		return arrays.DeviceScanKernelShaped(name, op, dsl.Lit(identity), kind == Exclusive, shape).Build()
	}
	for _, shape := range load {
		if _, err := s.kernel(shape); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// kernel returns the kernel of shape, loading it at its first use.
func (s *Scan[T]) kernel(shape arrays.DeviceScanShape) (runtime.Function, error) {
	if fn, ok := s.kernels[shape]; ok {
		return fn, nil
	}
	k, err := s.build(shape)
	if err != nil {
		return nil, err
	}
	fn, err := s.dev.Load(k)
	if err != nil {
		return nil, err
	}
	s.kernels[shape] = fn
	return fn, nil
}

// StateLen returns the number of uint64 words of state a scan of n
// elements by a Scan of New needs (see RunWithState), or an error for n
// past MaxLen.
func StateLen(n int) (int, error) { return stateLen(arrays.DeviceScanShapeFor, n) }

// StateLen returns the number of uint64 words of state a scan of n
// elements by s needs (see RunWithState), or an error for n past MaxLen.
func (s *Scan[T]) StateLen(n int) (int, error) { return stateLen(s.shapeFor, n) }

func stateLen(shapeFor func(uint32) arrays.DeviceScanShape, n int) (int, error) {
	if n < 0 || uint64(n) > MaxLen {
		return 0, fmt.Errorf("%w: %d elements", ErrTooLong, n)
	}
	return int(shapeFor(uint32(n)).StateLen(uint32(n))), nil
}

// Run writes the scan of in to out, which must have in's length (out may
// be in). The state it needs is the Scan's own: do not Run one Scan from
// several goroutines at once. A Run is one launch: the state is zeroed
// when it is allocated (and when it grows), and each Run after takes the
// next epoch of its status words and numbers its tiles on from where the
// Run before left the tile counter (see arrays.DeviceScanKernelShaped), so
// that it needs no zeroing; once in arrays.MaxEpoch Runs, and after a
// launch that failed, the state is zeroed again before the launch. A Scan
// whose shape has Vector rows needs in and out to start at 16-byte
// boundaries (buffers from runtime.Alloc do; a view does when its offset
// is a multiple of 4 elements); given views that do not, it runs the
// kernel of the same shape without Vector, loaded at the first such call,
// and computes the same scan, only slower.
func (s *Scan[T]) Run(in, out *runtime.Buffer[T]) error {
	words, err := s.check(in, out)
	if err != nil || words == 0 {
		return err
	}
	if s.state == nil || s.state.Len() < words {
		if s.state != nil {
			if err := s.state.Free(); err != nil {
				return err
			}
			s.state = nil
		}
		st, err := runtime.Alloc[uint64](s.dev, words)
		if err != nil {
			return fmt.Errorf("scan: state of %d words: %w", words, err)
		}
		s.state, s.epoch = st, 0
	}
	if s.epoch == 0 {
		if err := s.state.Fill(0); err != nil {
			return err
		}
		s.epoch, s.base = 1, 0
	}
	// Until the launch is known to be under way, the state is unknown: a
	// launch that fails may have run in part.
	epoch := s.epoch
	s.epoch = 0
	if err := s.run(in, out, s.state.View(0, words), epoch, s.base); err != nil {
		return err
	}
	s.base += uint64(words - 1)
	if epoch < arrays.MaxEpoch {
		s.epoch = epoch + 1
	}
	return nil
}

// RunWithState is Run with the state in state, at least
// s.StateLen(in.Len()) words, which it zeroes first, then launches the
// scan with epoch 1 and tile counter base 0: two launches, where Run on a
// Scan's own state makes one. Views not aligned to 16 bytes are taken as
// by Run.
func (s *Scan[T]) RunWithState(in, out *runtime.Buffer[T], state *runtime.Buffer[uint64]) error {
	words, err := s.check(in, out)
	if err != nil || words == 0 {
		return err
	}
	if state == nil {
		return fmt.Errorf("%w: nil, want %d words", ErrStateTooSmall, words)
	}
	if state.Len() < words {
		return fmt.Errorf("%w: %d words, want %d for %d elements", ErrStateTooSmall, state.Len(), words, in.Len())
	}
	st := state.View(0, words)
	if err := st.Fill(0); err != nil {
		return err
	}
	return s.run(in, out, st, 1, 0)
}

// run launches the scan of in into out on state, of StateLen words, with
// the given epoch and tile counter base: with the kernel of shapeFor, or
// of the same shape without Vector rows when it has them and in or out is
// not aligned to 16 bytes.
func (s *Scan[T]) run(in, out *runtime.Buffer[T], state *runtime.Buffer[uint64], epoch uint32, base uint64) error {
	shape := s.shapeFor(uint32(in.Len()))
	fn, err := s.kernel(shape)
	if err != nil {
		return err
	}
	cfg := runtime.LaunchConfig{Blocks: state.Len() - 1}
	err = s.launch(fn, cfg, in, out, state, epoch, base)
	if !shape.Vector || !errors.Is(err, runtime.ErrMisaligned) {
		return err
	}
	// A launch checks its arguments before it starts anything, so the
	// state is as it was.
	shape.Vector = false
	if fn, err = s.kernel(shape); err != nil {
		return fmt.Errorf("scan: loading the scan of views not aligned to 16 bytes: %w", err)
	}
	return s.launch(fn, cfg, in, out, state, epoch, base)
}

// Close frees the Scan's state.
func (s *Scan[T]) Close() error {
	if s.state == nil {
		return nil
	}
	err := s.state.Free()
	s.state, s.epoch = nil, 0
	return err
}

// check returns the state words a scan of in into out needs (0 for an
// empty input, which needs no launch), or why it cannot run.
func (s *Scan[T]) check(in, out *runtime.Buffer[T]) (int, error) {
	switch {
	case in == nil || out == nil:
		return 0, errors.New("scan: nil in or out buffer")
	case in.Len() != out.Len():
		return 0, fmt.Errorf("%w: in has %d elements, out %d", ErrLengthMismatch, in.Len(), out.Len())
	case in.Device() != s.dev || out.Device() != s.dev:
		return 0, fmt.Errorf("scan: buffers of device %s given to a scan loaded on %s", in.Device().Name(), s.dev.Name())
	}
	words, err := s.StateLen(in.Len())
	if err != nil || in.Len() == 0 {
		return 0, err
	}
	return words, nil
}

// ExclusiveSum writes to out the exclusive prefix sums of in (modulo 2^32):
// out[i] = in[0] + ... + in[i-1], out[0] = 0.
func ExclusiveSum(dev runtime.Device, in, out *runtime.Buffer[uint32]) error {
	return sum(dev, in, out, Exclusive)
}

// InclusiveSum writes to out the inclusive prefix sums of in (modulo
// 2^32): out[i] = in[0] + ... + in[i].
func InclusiveSum(dev runtime.Device, in, out *runtime.Buffer[uint32]) error {
	return sum(dev, in, out, Inclusive)
}

func sum(dev runtime.Device, in, out *runtime.Buffer[uint32], kind Kind) error {
	s, err := New(dev, dsl.U32.Add, 0, kind)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Run(in, out)
}
