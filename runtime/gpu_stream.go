package runtime

import (
	"errors"
	"fmt"
	"time"
	"unsafe"
)

// gpuStream is a CUDA stream. It is created blocking (it waits for the
// legacy default stream), so host copies order with its work.
type gpuStream struct {
	gpu    *GPU
	handle uintptr // CUstream
}

// NewStream returns a new CUDA stream on the GPU.
func (g *GPU) NewStream() (Stream, error) {
	s := &gpuStream{gpu: g}
	err := g.with(func() error {
		return g.drv.streamCreate.call(uintptr(unsafe.Pointer(&s.handle)), 0).err("creating a stream")
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Synchronize implements Stream.
func (s *gpuStream) Synchronize() error {
	return s.gpu.with(func() error { return s.gpu.drv.streamSynchronize.call(s.handle).err("synchronizing a stream") })
}

// Close implements Stream.
func (s *gpuStream) Close() error {
	return s.gpu.with(func() error { return s.gpu.drv.streamDestroy.call(s.handle).err("destroying a stream") })
}

// gpuEvent is a CUDA event.
type gpuEvent struct {
	gpu    *GPU
	handle uintptr // CUevent
}

// NewEvent returns a new CUDA event on the GPU.
func (g *GPU) NewEvent() (Event, error) {
	e := &gpuEvent{gpu: g}
	err := g.with(func() error {
		return g.drv.eventCreate.call(uintptr(unsafe.Pointer(&e.handle)), 0).err("creating an event")
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Record implements Event.
func (e *gpuEvent) Record(s Stream) error {
	var stream uintptr
	if s != nil {
		gs, ok := s.(*gpuStream)
		if !ok || gs.gpu != e.gpu {
			return fmt.Errorf("recording an event of %s on a stream of another device", e.gpu.Name())
		}
		stream = gs.handle
	}
	return e.gpu.with(func() error { return e.gpu.drv.eventRecord.call(e.handle, stream).err("recording an event") })
}

// Synchronize implements Event.
func (e *gpuEvent) Synchronize() error {
	return e.gpu.with(func() error { return e.gpu.drv.eventSynchronize.call(e.handle).err("waiting for an event") })
}

// Since implements Event.
func (e *gpuEvent) Since(start Event) (time.Duration, error) {
	s, ok := start.(*gpuEvent)
	if !ok || s.gpu != e.gpu {
		return 0, errors.New("timing events of different devices")
	}
	var ms float32
	err := e.gpu.with(func() error {
		return e.gpu.drv.eventElapsed.call(uintptr(unsafe.Pointer(&ms)), s.handle, e.handle).err("timing between events")
	})
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}

// Close implements Event.
func (e *gpuEvent) Close() error {
	return e.gpu.with(func() error { return e.gpu.drv.eventDestroy.call(e.handle).err("destroying an event") })
}
