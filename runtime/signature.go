package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/ir"
)

// Param describes one kernel parameter as a launch passes it: a buffer of
// Type elements (on the GPU a device pointer followed by an unsigned int
// length) or a scalar of Type.
type Param struct {
	Name  string
	Type  ir.Type
	Array bool
	// Align is, for an array, the bytes its data's address must be a
	// multiple of (ir.Array.Align); 0 asks only the element's alignment.
	Align int
}

// ErrMisaligned is wrapped by the error of a launch that passes, for an
// array parameter declared aligned (ir.Array.Align), a buffer whose data
// does not start at a multiple of the alignment: a view at an offset that
// is not. Test for it with errors.Is.
var ErrMisaligned = errors.New("misaligned buffer")

// checkAlign returns nil when address, the address of the data passed for
// p (a device address, or a byte offset into a buffer aligned to more than
// p.Align), is a multiple of p.Align, or the error saying it is not.
func (p *Param) checkAlign(what string, address uint64) error {
	if p.Align <= 1 || address%uint64(p.Align) == 0 {
		return nil
	}
	return fmt.Errorf("%w: parameter %s is declared aligned to %d bytes, and the buffer's %s %#x is not a multiple "+
		"of %d (take views at an element offset that is a multiple of %d)", ErrMisaligned, p.Name, p.Align, what,
		address, p.Align, p.Align/max(p.Type.Size(), 1))
}

// String returns the parameter as Go would declare it: "keys []uint32" or
// "n uint32".
func (p Param) String() string {
	if p.Array {
		return p.Name + " []" + p.Type.String()
	}
	return p.Name + " " + p.Type.String()
}

// Signature is a kernel's parameter list, in order. Generated launchers embed
// it next to the CUDA text so that launches are checked as for IR kernels.
type Signature []Param

// SignatureOf returns the parameter list of k.
func SignatureOf(k *ir.Kernel) Signature {
	sig := make(Signature, len(k.Params))
	for i, p := range k.Params {
		if p.Array != nil {
			sig[i] = Param{Name: p.Array.Name, Type: p.Array.Elem, Array: true, Align: p.Array.Align}
		} else {
			sig[i] = Param{Name: p.Scalar.Name, Type: p.Scalar.T}
		}
	}
	return sig
}

// String returns the list as Go would write it: "(a []float32, n uint32)".
func (s Signature) String() string {
	parts := make([]string, len(s))
	for i, p := range s {
		parts[i] = p.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// validate reports a parameter list a launch could never satisfy.
func (s Signature) validate() error {
	for i, p := range s {
		if !p.Type.Valid() {
			return fmt.Errorf("parameter %d (%s) has no valid type", i, p.Name)
		}
		if p.Align != 0 {
			if !p.Array {
				return fmt.Errorf("parameter %d (%s) is a scalar declared aligned to %d bytes", i, p.Name, p.Align)
			}
			if err := check.CheckAlign(ir.Global, p.Type, p.Align); err != nil {
				return fmt.Errorf("parameter %d (%s): %w", i, p.Name, err)
			}
		}
	}
	return nil
}

// boundArg is a launch argument checked against its parameter: a range of
// device memory, or a scalar value.
type boundArg struct {
	mem    *Mem
	off, n int // elements
	value  ir.Value
	param  *Param // in the kernel's Signature
}

// bufferArg is implemented by every *Buffer[T]; it lets untyped code reach
// the memory behind a typed buffer.
type bufferArg interface {
	memRange() (m *Mem, off, n int, err error)
	elemName() string
}

// bind checks args against the parameters of kernel on device d and returns
// them ready to launch, in into's memory when it has room (a launch passes
// an array of its own, so that binding allocates nothing). Nothing is
// touched on the device.
func (s Signature) bind(kernel string, d Device, args []any, into []boundArg) ([]boundArg, error) {
	if len(args) != len(s) {
		return nil, fmt.Errorf("kernel %s%s takes %d arguments, got %d", kernel, s, len(s), len(args))
	}
	bound := into[:0]
	if cap(bound) < len(s) {
		bound = make([]boundArg, 0, len(s))
	}
	bound = bound[:len(s)]
	for i := range s {
		if err := s[i].bind(d, args[i], &bound[i]); err != nil {
			return nil, fmt.Errorf("kernel %s: argument %d (%s): %w", kernel, i, s[i], err)
		}
	}
	return bound, nil
}

// bind checks arg against p and sets *b to it, bound. The argument is
// written in place, a launch's memory being on its goroutine's stack.
func (p *Param) bind(d Device, arg any, b *boundArg) error {
	if buf, ok := arg.(bufferArg); ok {
		if !p.Array {
			return fmt.Errorf("want a scalar of %s, got a buffer of %s", p.Type, buf.elemName())
		}
		m, off, n, err := buf.memRange()
		if err != nil {
			return err
		}
		if m.elem != p.Type {
			return fmt.Errorf("want a buffer of %s, got a buffer of %s", p.Type, m.elem)
		}
		if m.device != d {
			return fmt.Errorf("the buffer is on %s, the launch on %s", m.device.Name(), d.Name())
		}
		if uint64(n) > 1<<32-1 {
			return fmt.Errorf("%d elements: a kernel takes at most 2^32-1", n)
		}
		// The GPU allocates at 256-byte boundaries, so the offset decides
		// (the GPU's launch checks the address itself too).
		if err := p.checkAlign("data's byte offset", uint64(off)*uint64(m.elem.Size())); err != nil {
			return err
		}
		*b = boundArg{mem: m, off: off, n: n, param: p}
		return nil
	}
	v, ok := scalarValue(arg)
	switch {
	case p.Array:
		return fmt.Errorf("want a buffer of %s, got %T", p.Type, arg)
	case !ok:
		return fmt.Errorf("want a scalar of %s, got %T", p.Type, arg)
	case v.T != p.Type:
		return fmt.Errorf("want a scalar of %s, got %s", p.Type, v.T)
	}
	*b = boundArg{value: v, param: p}
	return nil
}
