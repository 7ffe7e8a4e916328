package eval

import (
	"encoding/binary"

	"github.com/obsidian-go/obsidian/ir"
)

// Buffer is global memory for one array argument: Len() elements of type
// Elem, little-endian, Elem.Size() bytes each (bool: 1 byte, 0 or 1; the
// storage floats: their 16 bits). A view
// of part of another buffer is a Buffer whose Data is a sub-slice.
type Buffer struct {
	Elem ir.Type
	Data []byte
}

// NewBuffer returns a zeroed buffer of n elements of type t.
func NewBuffer(t ir.Type, n int) *Buffer {
	return &Buffer{Elem: t, Data: make([]byte, n*t.Size())}
}

// Len returns the number of elements of the buffer.
func (b *Buffer) Len() int {
	if b.Elem.Size() == 0 {
		return 0
	}
	return len(b.Data) / b.Elem.Size()
}

// Get returns element i. Like a slice index, i must be in [0, Len()).
func (b *Buffer) Get(i int) ir.Value {
	v := loadBits(b.Data, b.Elem.Size(), i)
	if b.Elem == ir.Bool {
		v = boolBits(v != 0)
	}
	return ir.Value{T: b.Elem, Bits: v}
}

// Set stores v as element i, taking v's bits as bits of b.Elem (v.T should be
// b.Elem). Like a slice index, i must be in [0, Len()).
func (b *Buffer) Set(i int, v ir.Value) {
	storeBits(b.Data, b.Elem.Size(), i, v.Bits)
}

// loadBits reads element i of size bytes from data.
func loadBits(data []byte, size, i int) uint64 {
	switch size {
	case 1:
		return uint64(data[i])
	case 2:
		return uint64(binary.LittleEndian.Uint16(data[2*i : 2*i+2]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(data[4*i : 4*i+4]))
	}
	return binary.LittleEndian.Uint64(data[8*i : 8*i+8])
}

// storeBits writes v as element i of size bytes to data.
func storeBits(data []byte, size, i int, v uint64) {
	switch size {
	case 1:
		data[i] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(data[2*i:2*i+2], uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(data[4*i:4*i+4], uint32(v))
	default:
		binary.LittleEndian.PutUint64(data[8*i:8*i+8], v)
	}
}
