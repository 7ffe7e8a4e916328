package sorts

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// typedUse is what a scratch buffer of any element type holds.
type typedUse int

const (
	radixKeys     typedUse = iota // the radix sort's keys between passes
	radixValues                   // their values
	radixStatus                   // the look-back's status words (uint64)
	radixPosition                 // an argsort's positions between passes
)

// typedSlot names a scratch buffer of any element type: its use and its
// element type.
type typedSlot struct {
	use  typedUse
	elem ir.Type
}

// anyBuffer is a *runtime.Buffer[T] of any T.
type anyBuffer interface {
	Free() error
	Len() int
	Mem() *runtime.Mem
}

// bufferBytes returns the device memory b holds.
func bufferBytes(b anyBuffer) uint64 { return uint64(b.Len()) * uint64(b.Mem().Elem().Size()) }

// typedNeed is a scratch buffer of any element type a call uses, its
// length and how to allocate it.
type typedNeed struct {
	slot  typedSlot
	n     int
	alloc func(dev runtime.Device, n int) (anyBuffer, error)
}

// needOf returns the need of n elements of T for use.
func needOf[T runtime.Scalar](use typedUse, n int) typedNeed {
	return typedNeed{slot: typedSlot{use, runtime.TypeOf[T]()}, n: n,
		alloc: func(dev runtime.Device, n int) (anyBuffer, error) { return runtime.Alloc[T](dev, n) }}
}

// bytes returns the device memory the need allocates (at least one
// element).
func (nd typedNeed) bytes() uint64 { return uint64(max(nd.n, 1)) * uint64(nd.slot.elem.Size()) }

// short reports whether the scratch must grow for nd.
func (sc *scratch) short(nd typedNeed) bool {
	b, ok := sc.typed[nd.slot]
	return !ok || b.Len() < nd.n
}

// growTyped allocates the needs whose buffers are missing or too short,
// freeing the buffers they replace first.
func (sc *scratch) growTyped(dev runtime.Device, needs []typedNeed) error {
	for _, nd := range needs {
		if !sc.short(nd) {
			continue
		}
		if old, ok := sc.typed[nd.slot]; ok {
			delete(sc.typed, nd.slot) // even if Free fails, it is not used again
			if err := old.Free(); err != nil {
				return err
			}
		}
		b, err := nd.alloc(dev, max(nd.n, 1))
		if err != nil {
			return err
		}
		if sc.typed == nil {
			sc.typed = map[typedSlot]anyBuffer{}
		}
		sc.typed[nd.slot] = b
	}
	return nil
}

// takeTyped returns the first n elements of the scratch buffer of T for
// use, which reserveTyped grew.
func takeTyped[T runtime.Scalar](sc *scratch, use typedUse, n int) (*runtime.Buffer[T], error) {
	b, ok := sc.typed[typedSlot{use, runtime.TypeOf[T]()}].(*runtime.Buffer[T])
	if !ok || b.Len() < n {
		return nil, fmt.Errorf("sorts: internal error: %d scratch elements of %s were not reserved", n, runtime.TypeOf[T]())
	}
	return b.View(0, n), nil
}
