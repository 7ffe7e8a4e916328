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
// undefined until written.
func Alloc[T Scalar](d Device, n int) (*Buffer[T], error) {
	m, err := d.Alloc(TypeOf[T](), n)
	if err != nil {
		return nil, err
	}
	return &Buffer[T]{mem: m, n: n}, nil
}

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

// Len returns the number of elements.
func (b *Buffer[T]) Len() int { return b.n }

// Device returns the device the buffer is on.
func (b *Buffer[T]) Device() Device { return b.mem.device }

// Mem returns the allocation the buffer is (part of).
func (b *Buffer[T]) Mem() *Mem { return b.mem }

// View returns the n elements starting at off, sharing the buffer's memory.
// An out-of-range view is returned anyway, and every use of it fails with
// an error saying why.
func (b *Buffer[T]) View(off, n int) *Buffer[T] {
	v := &Buffer[T]{mem: b.mem, off: b.off + off, n: n, view: true, err: b.err}
	if v.err == nil && (off < 0 || n < 0 || off > b.n-n) {
		v.err = fmt.Errorf("view [%d, %d+%d) of a buffer of %d elements is out of range", off, off, n, b.n)
		v.off, v.n = b.off, 0
	}
	return v
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
	s := make([]T, b.n)
	if err := b.CopyTo(s); err != nil {
		return nil, err
	}
	return s, nil
}

// Fill sets every element to v.
func (b *Buffer[T]) Fill(v T) error {
	if b.err != nil {
		return b.err
	}
	val, _ := scalarValue(v)
	return b.mem.use(func(st storage) error { return st.fill(b.byteOff(), b.n*b.elemSize(), valueBytes(val)) })
}

// Free releases the buffer's memory. Freeing a view is an error: free the
// buffer it was taken from.
func (b *Buffer[T]) Free() error {
	if b.view {
		return errors.New("freeing a view: free the buffer it is a view of")
	}
	return b.mem.Free()
}

func (b *Buffer[T]) checkHost(what string, n int) error {
	if b.err != nil {
		return b.err
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

func (b *Buffer[T]) byteOff() int { return b.off * b.elemSize() }

func (b *Buffer[T]) memRange() (*Mem, int, int, error) {
	if b == nil {
		return nil, 0, 0, errors.New("nil buffer")
	}
	return b.mem, b.off, b.n, b.err
}

func (b *Buffer[T]) elemName() string { return TypeOf[T]().String() }
