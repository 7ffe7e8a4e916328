package runtime

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/obsidian-go/obsidian/ir"
)

// gpuStorage is device memory on a GPU.
type gpuStorage struct {
	gpu  *GPU
	ptr  uint64 // CUdeviceptr; 0 for an empty allocation
	size int
}

// Alloc allocates device memory for n elements of type t. A request for
// more than the GPU has, or more than it has free, fails with an error
// wrapping ErrOutOfMemory, and the GPU stays usable.
func (g *GPU) Alloc(t ir.Type, n int) (*Mem, error) {
	size, err := allocBytes(t, n)
	if err != nil {
		return nil, err
	}
	if err := g.opened(); err != nil {
		return nil, err
	}
	if uint64(size) > g.props.TotalMemory {
		return nil, fmt.Errorf("allocating %d elements of %s (%d bytes) on %s: it has %d bytes in all: %w",
			n, t, size, g.Name(), g.props.TotalMemory, ErrOutOfMemory)
	}
	s := &gpuStorage{gpu: g, size: size}
	if s.size > 0 {
		err := g.with(func() error {
			return g.drv.memAlloc.call(uintptr(unsafe.Pointer(&s.ptr)), uintptr(s.size)).errf("allocating %d elements of %s (%d bytes) on %s", n, t, s.size, g.Name())
		})
		if err != nil {
			return nil, err
		}
	}
	return newMem(g, t, n, s), nil
}

func (s *gpuStorage) write(off int, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return s.gpu.with(func() error {
		return s.gpu.drv.memcpyHtoD.call(uintptr(s.ptr)+uintptr(off), uintptr(unsafe.Pointer(&src[0])), uintptr(len(src))).errf("copying %d bytes to the GPU", len(src))
	})
}

func (s *gpuStorage) read(off int, dst []byte) error {
	if len(dst) == 0 {
		return nil
	}
	return s.gpu.with(func() error {
		return s.gpu.drv.memcpyDtoH.call(uintptr(unsafe.Pointer(&dst[0])), uintptr(s.ptr)+uintptr(off), uintptr(len(dst))).errf("copying %d bytes from the GPU", len(dst))
	})
}

// fill sets size bytes at off to copies of elem, queued on stream: with a
// memset when one byte or 32-bit word repeats, else by copies of a filled
// host block (which the driver has staged when the copy returns, so that
// the block may go).
func (s *gpuStorage) fill(off, size int, elem []byte, stream Stream) error {
	handle, err := s.gpu.streamHandle(stream)
	if err != nil {
		return fmt.Errorf("filling %d bytes on %s: %w", size, s.gpu.Name(), err)
	}
	if size == 0 {
		return nil
	}
	dst := uintptr(s.ptr) + uintptr(off)
	drv := s.gpu.drv
	switch {
	case len(elem) == 1:
		return s.gpu.with(func() error {
			return drv.memsetD8Async.callValues(dst, uintptr(elem[0]), uintptr(size), handle).errf("filling %d bytes on the GPU", size)
		})
	case len(elem) == 4 || [4]byte(elem[:4]) == [4]byte(elem[4:]):
		word := binary.LittleEndian.Uint32(elem)
		return s.gpu.with(func() error {
			return drv.memsetD32Async.callValues(dst, uintptr(word), uintptr(size/4), handle).errf("filling %d bytes on the GPU", size)
		})
	}
	block := make([]byte, min(size, 1<<20))
	for i := 0; i < len(block); i += len(elem) {
		copy(block[i:], elem)
	}
	for done := 0; done < size; done += len(block) {
		part := block[:min(len(block), size-done)]
		err := s.gpu.with(func() error {
			return drv.memcpyHtoDAsync.call(dst+uintptr(done), uintptr(unsafe.Pointer(&part[0])), uintptr(len(part)), handle).errf("copying %d bytes to the GPU", len(part))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *gpuStorage) release() error {
	if s.ptr == 0 {
		return nil
	}
	return s.gpu.with(func() error {
		return s.gpu.drv.memFree.call(uintptr(s.ptr)).errf("freeing %d bytes on the GPU", s.size)
	})
}

// devicePtr returns the device address of element off of m, which is on g;
// m.mu is held.
func (g *GPU) devicePtr(m *Mem, off int) (uint64, error) {
	if m.store == nil {
		return 0, errFreed
	}
	s, ok := m.store.(*gpuStorage)
	if !ok || s.gpu != g {
		return 0, fmt.Errorf("the buffer is not on %s", g.Name())
	}
	return s.ptr + uint64(off*m.elem.Size()), nil
}
