package runtime

import (
	"errors"
	"fmt"
	"unsafe"
)

// Buffer is typed memory on a device: Len elements of T, either a whole
// allocation or a view of part of one. Copies between host and device are
// synchronous. A Buffer is a launch argument for an array parameter of T's
// type.
type Buffer[T Scalar] struct {
	mem  *Mem
	off  int // first element of the allocation the buffer covers
	n    int
	view bool
	err  error // why the buffer is unusable (a bad view)
}

// Alloc allocates a buffer of n elements of T on d. Its contents are
// undefined until written. A request beyond what d has or allows is an
// error wrapping ErrOutOfMemory.
func Alloc[T Scalar](d Device, n int) (*Buffer[T], error) {
	if d == nil {
		return nil, fmt.Errorf("allocating %d elements of %s: %w", n, TypeOf[T](), errNilDevice)
	}
	m, err := d.Alloc(TypeOf[T](), n)
	if err != nil {
		return nil, err
	}
	return &Buffer[T]{mem: m, n: n}, nil
}

// errNilDevice is returned when a nil Device is given.
var errNilDevice = errors.New("nil Device")

// FromSlice allocates a buffer on d holding a copy of s.
func FromSlice[T Scalar](d Device, s []T) (*Buffer[T], error) {
	b, err := Alloc[T](d, len(s))
	if err != nil {
		return nil, err
	}
	if err := b.CopyFrom(s); err != nil {
		_ = b.Free()
		return nil, err
	}
	return b, nil
}

// Errors of buffers that were never allocated. Every method of such a
// buffer returns one of them (or a zero value where it returns no error).
var (
	errNilBuffer  = errors.New("nil buffer")
	errZeroBuffer = errors.New("the Buffer was not made by Alloc, FromSlice or View (it is a zero Buffer)")
)

// usable returns why b cannot be used, or nil.
func (b *Buffer[T]) usable() error {
	switch {
	case b == nil:
		return errNilBuffer
	case b.err != nil:
		return b.err
	case b.mem == nil:
		return errZeroBuffer
	}
	return nil
}

// Err returns why the buffer cannot be used, or nil: a nil or zero
// Buffer, a view out of range, or memory that has been freed. Every other
// use of such a buffer fails with the same error. It touches no device
// memory and allocates nothing, so that a library can check its arguments
// before each launch.
func (b *Buffer[T]) Err() error {
	if err := b.usable(); err != nil {
		return err
	}
	return b.mem.use(func(storage) error { return nil })
}

// Len returns the number of elements (0 for a nil Buffer).
func (b *Buffer[T]) Len() int {
	if b == nil {
		return 0
	}
	return b.n
}

// Device returns the device the buffer is on (nil for a nil or zero
// Buffer).
func (b *Buffer[T]) Device() Device { return b.Mem().Device() }

// Mem returns the allocation the buffer is (part of) (nil for a nil or zero
// Buffer).
func (b *Buffer[T]) Mem() *Mem {
	if b == nil {
		return nil
	}
	return b.mem
}

// View returns the n elements starting at off, sharing the buffer's memory.
// An out-of-range view (or a view of a nil, zero or bad buffer) is returned
// anyway, and every use of it fails with an error saying why.
func (b *Buffer[T]) View(off, n int) *Buffer[T] {
	if err := b.usable(); err != nil {
		return &Buffer[T]{mem: b.Mem(), view: true, err: err}
	}
	if off < 0 || n < 0 || off > b.n-n {
		err := fmt.Errorf("view [%d, %d+%d) of a buffer of %d elements is out of range", off, off, n, b.n)
		return &Buffer[T]{mem: b.mem, off: b.off, view: true, err: err}
	}
	return &Buffer[T]{mem: b.mem, off: b.off + off, n: n, view: true}
}

// CopyFrom copies s, which must have Len elements, into the buffer.
func (b *Buffer[T]) CopyFrom(s []T) error {
	if err := b.checkHost("copying to", len(s)); err != nil {
		return err
	}
	return b.mem.use(func(st storage) error { return st.write(b.byteOff(), bytesOf(s)) })
}

// CopyTo copies the buffer into s, which must have Len elements.
func (b *Buffer[T]) CopyTo(s []T) error {
	if err := b.checkHost("copying from", len(s)); err != nil {
		return err
	}
	return b.mem.use(func(st storage) error { return st.read(b.byteOff(), bytesOf(s)) })
}

// ToSlice returns a copy of the buffer's elements.
func (b *Buffer[T]) ToSlice() ([]T, error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	s := make([]T, b.n)
	if err := b.CopyTo(s); err != nil {
		return nil, err
	}
	return s, nil
}

// Fill sets every element to v, on the default stream: work queued before
// it on any stream is done first, as for a copy.
func (b *Buffer[T]) Fill(v T) error { return b.FillOn(nil, v) }

// FillOn queues setting every element to v on stream s, a stream of the
// buffer's device (nil: the default stream, as Fill): it runs after the
// work queued on s before it, and work queued on s after it sees the
// buffer filled.
func (b *Buffer[T]) FillOn(s Stream, v T) error {
	if err := b.usable(); err != nil {
		return err
	}
	val, _ := scalarValue(v)
	return b.mem.use(func(st storage) error { return st.fill(b.byteOff(), b.n*b.elemSize(), valueBytes(val), s) })
}

// Free releases the buffer's memory. Freeing a view is an error: free the
// buffer it was taken from.
func (b *Buffer[T]) Free() error {
	if err := b.usable(); err != nil {
		return err
	}
	if b.view {
		return errors.New("freeing a view: free the buffer it is a view of")
	}
	return b.mem.Free()
}

func (b *Buffer[T]) checkHost(what string, n int) error {
	if err := b.usable(); err != nil {
		return err
	}
	if n != b.n {
		return fmt.Errorf("%s a buffer of %d elements of %s: the slice has %d", what, b.n, TypeOf[T](), n)
	}
	return nil
}

func (b *Buffer[T]) elemSize() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// byteOff returns the buffer's offset in bytes. Offsets and lengths of a
// usable buffer lie within an allocation whose size in bytes was checked
// (allocBytes), so this and the other byte counts derived from them cannot
// overflow.
func (b *Buffer[T]) byteOff() int { return b.off * b.elemSize() }

func (b *Buffer[T]) memRange() (*Mem, int, int, error) {
	if err := b.usable(); err != nil {
		return nil, 0, 0, err
	}
	return b.mem, b.off, b.n, nil
}

func (b *Buffer[T]) elemName() string { return TypeOf[T]().String() }
