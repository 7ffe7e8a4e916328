package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
)

// CPUMaxSharedBytes is the shared memory per block the CPU device allows: as
// much as current NVIDIA GPUs let a kernel opt in to, so that kernels sized
// for them run unchanged.
const CPUMaxSharedBytes = 227 << 10

// cpuDevice runs kernels with the IR evaluator. Launches are synchronous.
type cpuDevice struct {
	id     int64
	closed atomic.Bool
	limit  int64           // the most bytes held at once
	held   atomic.Int64    // bytes of live allocations and running launches
	ctx    context.Context // cancels every launch (CPUContext); nil: none
}

var cpuDevices atomic.Int64

// CPU returns a new CPU device: kernels are interpreted by the evaluator,
// which checks every launch for data races, divergent barriers and
// out-of-bounds accesses and reports them, with the Go line that built the
// offending statement, as the launch's error. The device holds at most
// DefaultCPUMemoryLimit() bytes, or what CPUMemoryLimit sets; the package
// documentation says what its launches cost.
func CPU(options ...CPUOption) Device {
	d := &cpuDevice{id: cpuDevices.Add(1), limit: -1}
	for _, o := range options {
		if o != nil {
			o(d)
		}
	}
	if d.limit < 0 {
		d.limit = DefaultCPUMemoryLimit()
	}
	return d
}

// Name implements Device.
func (d *cpuDevice) Name() string { return fmt.Sprintf("CPU evaluator %d", d.id) }

// Alloc implements Device. An allocation that would take the device past
// its memory limit fails with an error wrapping ErrOutOfMemory.
func (d *cpuDevice) Alloc(t ir.Type, n int) (*Mem, error) {
	size, err := allocBytes(t, n)
	if err != nil {
		return nil, err
	}
	if d.closed.Load() {
		return nil, errCPUClosed
	}
	if err := d.reserve(int64(size)); err != nil {
		return nil, fmt.Errorf("allocating %d elements of %s (%d bytes) on %s: %w", n, t, size, d.Name(), err)
	}
	st := &cpuStorage{device: d, id: cpuStorages.Add(1), buf: eval.NewBuffer(t, n)}
	return newMem(d, t, n, st), nil
}

var errCPUClosed = errors.New("the CPU device has been closed")

// cpuFunction is a kernel verified and kept as IR.
type cpuFunction struct {
	device *cpuDevice
	kernel *ir.Kernel
	sig    Signature
	grid   *gridCount
	// program compiles the kernel for the evaluator at its first launch
	// and gives every launch that program, or the compiler's error, so
	// that a kernel launched many times is compiled once and one never
	// launched not at all. Concurrent launches run the one program.
	program func() (*eval.Program, error)
}

// Name implements Function.
func (f *cpuFunction) Name() string { return f.kernel.Name }

// Signature implements Function.
func (f *cpuFunction) Signature() Signature { return f.sig }

// Threads implements Function.
func (f *cpuFunction) Threads() int { return f.kernel.Threads }

// SharedBytes implements Function.
func (f *cpuFunction) SharedBytes() int { return f.kernel.SharedBytes }

// Load implements Device: k goes through codegen's passes (verify,
// simplify, shared-memory layout) as it would for a GPU.
func (d *cpuDevice) Load(k *ir.Kernel) (Function, error) {
	if d.closed.Load() {
		return nil, errCPUClosed
	}
	compiled, err := codegen.Compile(k, codegen.Target{MaxSharedBytes: CPUMaxSharedBytes})
	if err != nil {
		return nil, err
	}
	return &cpuFunction{device: d, kernel: compiled, sig: SignatureOf(compiled), grid: newGridCount(compiled),
		program: sync.OnceValues(func() (*eval.Program, error) { return eval.Compile(compiled) })}, nil
}

// Launch implements Device. It returns when the kernel has run, or when
// cfg.Context or the device's CPUContext is done (checked before each block
// and every few hundred loop iterations within one). The evaluator's state
// for the launch counts against the device's memory limit while it runs.
// The first launch of a Function compiles its kernel for the evaluator; the
// others, from any goroutine, reuse what it compiled.
func (d *cpuDevice) Launch(f Function, cfg LaunchConfig, args ...any) error {
	if d.closed.Load() {
		return errCPUClosed
	}
	if f == nil {
		return fmt.Errorf("%w on %s", errNilFunction, d.Name())
	}
	cf, ok := f.(*cpuFunction)
	if !ok || cf.device != d {
		return fmt.Errorf("launching kernel %s on %s: it was not loaded there", f.Name(), d.Name())
	}
	if err := d.checkStream(cfg.Stream); err != nil {
		return fmt.Errorf("launching kernel %s on %s: %w", cf.Name(), d.Name(), err)
	}
	var boundStore [inlineArgs]boundArg
	bound, err := cf.sig.bind(cf.Name(), d, args, boundStore[:])
	if err != nil {
		return err
	}
	blocks, err := cf.grid.size(cf.Name(), cfg, bound)
	if err != nil {
		return err
	}
	ctx, stop := d.launchContext(cfg.Context)
	defer stop()
	if err := cancelled(ctx, cf.Name(), d); err != nil {
		return err
	}
	lengths := make([]int, len(bound))
	for i, a := range bound {
		lengths[i] = a.n
	}
	workers, state, err := d.reserveLaunch(cf.kernel, lengths, blocks)
	if err != nil {
		return fmt.Errorf("launching kernel %s on %s: the evaluator's state for the launch needs about %d bytes: %w",
			cf.Name(), d.Name(), state, err)
	}
	defer d.unreserve(state)
	var heldStore [inlineArgs]*Mem
	held, err := hold(bound, heldStore[:])
	if err != nil {
		return fmt.Errorf("launching kernel %s: %w", cf.Name(), err)
	}
	defer release(held)
	defer lockData(cf.kernel, bound)()
	evalArgs := make([]eval.Arg, len(bound))
	for i, a := range bound {
		if a.mem == nil {
			evalArgs[i] = eval.Arg{Scalar: a.value}
			continue
		}
		data := a.mem.store.(*cpuStorage).buf.Data
		size := a.mem.elem.Size()
		evalArgs[i] = eval.Arg{Buffer: &eval.Buffer{Elem: a.mem.elem, Data: data[a.off*size : (a.off+a.n)*size]}}
	}
	program, err := cf.program()
	if err == nil {
		err = program.Launch(eval.Config{Blocks: blocks, Context: ctx, Workers: workers}, evalArgs)
	}
	if err != nil {
		return fmt.Errorf("launching kernel %s on %s: %w", cf.Name(), d.Name(), err)
	}
	return nil
}

// Synchronize implements Device; CPU launches are synchronous.
func (d *cpuDevice) Synchronize() error { return nil }

// Close implements Device.
func (d *cpuDevice) Close() error {
	if d.closed.Swap(true) {
		return errCPUClosed
	}
	return nil
}

// cpuStorage is host memory holding an evaluator buffer, counted against
// its device's limit until released.
type cpuStorage struct {
	device *cpuDevice
	id     int64 // the order in which a launch locks its buffers
	// data is held for writing while the buffer is written and for reading
	// while it is read, so that copies and launches from several goroutines
	// happen one after the other, as a GPU's copies and launches on its
	// default stream do.
	data sync.RWMutex
	buf  *eval.Buffer
}

var cpuStorages atomic.Int64

func (s *cpuStorage) write(off int, src []byte) error {
	if s.device.closed.Load() {
		return errCPUClosed
	}
	s.data.Lock()
	defer s.data.Unlock()
	copy(s.buf.Data[off:], src)
	return nil
}

func (s *cpuStorage) read(off int, dst []byte) error {
	if s.device.closed.Load() {
		return errCPUClosed
	}
	s.data.RLock()
	defer s.data.RUnlock()
	copy(dst, s.buf.Data[off:])
	return nil
}

func (s *cpuStorage) fill(off, size int, elem []byte, stream Stream) error {
	if s.device.closed.Load() {
		return errCPUClosed
	}
	if err := s.device.checkStream(stream); err != nil {
		return fmt.Errorf("filling %d bytes on %s: %w", size, s.device.Name(), err)
	}
	s.data.Lock()
	defer s.data.Unlock()
	dst := s.buf.Data[off : off+size]
	// One element, then the filled part copied after itself, doubling it.
	filled := copy(dst, elem)
	for filled < size {
		filled += copy(dst[filled:], dst[:filled])
	}
	return nil
}

// lockData locks the data of a launch's buffers, for writing those that k
// may write, in the order of their ids so that concurrent launches cannot
// deadlock, and returns the function that unlocks them. The buffers are
// held (see hold).
func lockData(k *ir.Kernel, bound []boundArg) (unlock func()) {
	writes := map[*cpuStorage]bool{}
	for i, a := range bound {
		if a.mem == nil {
			continue
		}
		s := a.mem.store.(*cpuStorage)
		writes[s] = writes[s] || k.Params[i].Array.Access != ir.Input
	}
	order := slices.SortedFunc(maps.Keys(writes), func(a, b *cpuStorage) int { return cmp.Compare(a.id, b.id) })
	for _, s := range order {
		if writes[s] {
			s.data.Lock()
		} else {
			s.data.RLock()
		}
	}
	return func() {
		for _, s := range order {
			if writes[s] {
				s.data.Unlock()
			} else {
				s.data.RUnlock()
			}
		}
	}
}

// release gives the buffer's bytes back to the device's count; a buffer
// of a closed device, like a GPU's, can no longer be freed.
func (s *cpuStorage) release() error {
	if s.device.closed.Load() {
		return errCPUClosed
	}
	s.device.unreserve(int64(len(s.buf.Data)))
	return nil
}

// cpuStream is a stream of the CPU device: launches run as they are made,
// so there is never anything to wait for.
type cpuStream struct {
	device *cpuDevice
	closed atomic.Bool
}

// NewStream implements Device.
func (d *cpuDevice) NewStream() (Stream, error) { return &cpuStream{device: d}, nil }

// checkStream returns why the device cannot queue work on s: s is another
// device's stream, or closed. nil, the default stream, is always usable.
func (d *cpuDevice) checkStream(s Stream) error {
	if s == nil {
		return nil
	}
	cs, ok := s.(*cpuStream)
	switch {
	case !ok || cs.device != d:
		return errForeignStream
	case cs.closed.Load():
		return errStreamClosed
	}
	return nil
}

// Synchronize implements Stream.
func (s *cpuStream) Synchronize() error {
	if s.closed.Load() {
		return errStreamClosed
	}
	return nil
}

// Close implements Stream. Closing twice is an error, as on a GPU.
func (s *cpuStream) Close() error {
	if s.closed.Swap(true) {
		return errStreamClosed
	}
	return nil
}

// cpuEvent records the wall-clock time.
type cpuEvent struct {
	device *cpuDevice
	at     atomic.Int64 // Unix nanoseconds when recorded; 0 before
	closed atomic.Bool
}

// NewEvent implements Device.
func (d *cpuDevice) NewEvent() (Event, error) { return &cpuEvent{device: d}, nil }

// Record implements Event.
func (e *cpuEvent) Record(s Stream) error {
	if e.closed.Load() {
		return errEventClosed
	}
	if err := e.device.checkStream(s); err != nil {
		return fmt.Errorf("recording an event of %s: %w", e.device.Name(), err)
	}
	e.at.Store(time.Now().UnixNano())
	return nil
}

// Synchronize implements Event.
func (e *cpuEvent) Synchronize() error {
	if e.closed.Load() {
		return errEventClosed
	}
	return nil
}

// Since implements Event.
func (e *cpuEvent) Since(start Event) (time.Duration, error) {
	s, ok := start.(*cpuEvent)
	switch {
	case start == nil:
		return 0, errors.New("timing from a nil Event")
	case !ok || s.device != e.device:
		return 0, errors.New("timing events of different devices")
	}
	if e.closed.Load() || s.closed.Load() {
		return 0, errEventClosed
	}
	if s.at.Load() == 0 || e.at.Load() == 0 {
		return 0, errors.New("timing events that have not been recorded")
	}
	return time.Duration(e.at.Load() - s.at.Load()), nil
}

// Close implements Event. Closing twice is an error, as on a GPU.
func (e *cpuEvent) Close() error {
	if e.closed.Swap(true) {
		return errEventClosed
	}
	return nil
}
