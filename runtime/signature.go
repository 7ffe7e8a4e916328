package runtime

import (
	"fmt"
	"strings"

	"github.com/obsidian-go/obsidian/ir"
)

// Param describes one kernel parameter as a launch passes it: a buffer of
// Type elements (on the GPU a device pointer followed by an unsigned int
// length) or a scalar of Type.
type Param struct {
	Name  string
	Type  ir.Type
	Array bool
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
			sig[i] = Param{Name: p.Array.Name, Type: p.Array.Elem, Array: true}
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
	}
	return nil
}

// boundArg is a launch argument checked against its parameter: a range of
// device memory, or a scalar value.
type boundArg struct {
	mem    *Mem
	off, n int // elements
	value  ir.Value
}

// bufferArg is implemented by every *Buffer[T]; it lets untyped code reach
// the memory behind a typed buffer.
type bufferArg interface {
	memRange() (m *Mem, off, n int, err error)
	elemName() string
}

// bind checks args against the parameters of kernel on device d and returns
// them ready to launch. Nothing is touched on the device.
func (s Signature) bind(kernel string, d Device, args []any) ([]boundArg, error) {
	if len(args) != len(s) {
		return nil, fmt.Errorf("kernel %s%s takes %d arguments, got %d", kernel, s, len(s), len(args))
	}
	bound := make([]boundArg, len(s))
	for i, p := range s {
		b, err := p.bind(d, args[i])
		if err != nil {
			return nil, fmt.Errorf("kernel %s: argument %d (%s): %w", kernel, i, p, err)
		}
		bound[i] = b
	}
	return bound, nil
}

func (p Param) bind(d Device, arg any) (boundArg, error) {
	if buf, ok := arg.(bufferArg); ok {
		if !p.Array {
			return boundArg{}, fmt.Errorf("want a scalar of %s, got a buffer of %s", p.Type, buf.elemName())
		}
		m, off, n, err := buf.memRange()
		if err != nil {
			return boundArg{}, err
		}
		if m.elem != p.Type {
			return boundArg{}, fmt.Errorf("want a buffer of %s, got a buffer of %s", p.Type, m.elem)
		}
		if m.device != d {
			return boundArg{}, fmt.Errorf("the buffer is on %s, the launch on %s", m.device.Name(), d.Name())
		}
		if uint64(n) > 1<<32-1 {
			return boundArg{}, fmt.Errorf("%d elements: a kernel takes at most 2^32-1", n)
		}
		return boundArg{mem: m, off: off, n: n}, nil
	}
	v, ok := scalarValue(arg)
	switch {
	case p.Array:
		return boundArg{}, fmt.Errorf("want a buffer of %s, got %T", p.Type, arg)
	case !ok:
		return boundArg{}, fmt.Errorf("want a scalar of %s, got %T", p.Type, arg)
	case v.T != p.Type:
		return boundArg{}, fmt.Errorf("want a scalar of %s, got %s", p.Type, v.T)
	}
	return boundArg{value: v}, nil
}
