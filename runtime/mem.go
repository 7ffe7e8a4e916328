package runtime

import (
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"sync"

	"github.com/obsidian-go/obsidian/ir"
)

// Mem is untyped device memory: n elements of one scalar type on one device.
// Buffer[T] is the typed handle most code uses; Mem is what a Device
// allocates. Memory not freed is released when it becomes unreachable, but
// only Free releases it at a known time.
type Mem struct {
	device Device
	elem   ir.Type
	n      int

	mu      sync.RWMutex // held for reading while the memory is used
	store   storage      // nil once freed
	cleanup goruntime.Cleanup
}

// storage is the memory behind a Mem on one kind of device. Offsets and
// sizes are in bytes.
type storage interface {
	write(off int, src []byte) error
	read(off int, dst []byte) error
	// fill queues setting size bytes at off to copies of elem on stream s
	// (nil: the default stream), after checking that the device can.
	fill(off, size int, elem []byte, s Stream) error
	release() error
}

// errFreed is returned for any use of freed memory.
var errFreed = errors.New("the buffer has been freed")

// ErrOutOfMemory is wrapped by the errors of requests for more memory than a
// device has or allows: an allocation beyond the GPU's memory or the CPU
// device's limit (see CPUMemoryLimit), a size whose byte count overflows,
// a CPU launch whose evaluator state would not fit. Test for it with
// errors.Is.
var ErrOutOfMemory = errors.New("out of memory")

func newMem(d Device, t ir.Type, n int, s storage) *Mem {
	m := &Mem{device: d, elem: t, n: n, store: s}
	m.cleanup = goruntime.AddCleanup(m, func(s storage) { _ = s.release() }, s)
	return m
}

// allocBytes returns the size in bytes of n elements of t, or an error
// saying why no device can allocate them: t is no scalar type, n is
// negative, or the byte count overflows an int.
func allocBytes(t ir.Type, n int) (int, error) {
	if !t.Valid() {
		return 0, fmt.Errorf("allocating memory of %s: not a scalar type", t)
	}
	if n < 0 {
		return 0, fmt.Errorf("allocating %d elements of %s: negative length", n, t)
	}
	if n > math.MaxInt/t.Size() {
		return 0, fmt.Errorf("allocating %d elements of %s: %d × %d bytes overflows an int: %w", n, t, n, t.Size(), ErrOutOfMemory)
	}
	return n * t.Size(), nil
}

// Device returns the device the memory is on (nil for a nil Mem).
func (m *Mem) Device() Device {
	if m == nil {
		return nil
	}
	return m.device
}

// Elem returns the element type (ir.NoType for a nil Mem).
func (m *Mem) Elem() ir.Type {
	if m == nil {
		return ir.NoType
	}
	return m.elem
}

// Len returns the number of elements (0 for a nil Mem).
func (m *Mem) Len() int {
	if m == nil {
		return 0
	}
	return m.n
}

// errNoMem is returned for a nil Mem or one not allocated by a Device.
var errNoMem = errors.New("the memory was not allocated by a Device")

// Free releases the memory. Freeing twice is an error.
func (m *Mem) Free() error {
	if m == nil || m.device == nil {
		return errNoMem
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.store == nil {
		return errFreed
	}
	m.cleanup.Stop()
	err := m.store.release()
	m.store = nil
	return err
}

// use runs f with the memory's storage, which stays valid until f returns.
func (m *Mem) use(f func(s storage) error) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.store == nil {
		return errFreed
	}
	return f(m.store)
}

// hold keeps the memory of a launch's buffer arguments from being freed
// until release is called with what it returns: each allocation, held
// once however many arguments share it, in into's memory when it has room.
// It fails, holding nothing, if any has been freed.
func hold(args []boundArg, into []*Mem) ([]*Mem, error) {
	held := into[:0]
	for _, a := range args {
		if a.mem == nil || slices.Contains(held, a.mem) {
			continue
		}
		a.mem.mu.RLock()
		held = append(held, a.mem)
		if a.mem.store == nil {
			release(held)
			return nil, errFreed
		}
	}
	return held, nil
}

// release lets go of the memory hold kept.
func release(held []*Mem) {
	for _, m := range held {
		m.mu.RUnlock()
	}
}
