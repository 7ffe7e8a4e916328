package runtime

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"
)

// errStreamClosed and errEventClosed are returned for any use of a closed
// stream or event, of any device, closing it again included;
// errForeignStream for work queued on a stream of another device.
var (
	errStreamClosed  = errors.New("the stream has been closed")
	errEventClosed   = errors.New("the event has been closed")
	errForeignStream = errors.New("the stream is not one of its streams")
)

// gpuStream is a CUDA stream. It is created blocking (it waits for the
// legacy default stream), so host copies order with its work.
type gpuStream struct {
	gpu    *GPU
	handle uintptr // CUstream
	closed atomic.Bool
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

// streamHandle returns the CUstream that queues work on s (0, the default
// stream, for nil), or why the GPU cannot: s is another device's stream,
// or closed.
func (g *GPU) streamHandle(s Stream) (uintptr, error) {
	if s == nil {
		return 0, nil
	}
	gs, ok := s.(*gpuStream)
	switch {
	case !ok || gs.gpu != g:
		return 0, errForeignStream
	case gs.closed.Load():
		return 0, errStreamClosed
	}
	return gs.handle, nil
}

// Synchronize implements Stream.
func (s *gpuStream) Synchronize() error {
	if s.closed.Load() {
		return errStreamClosed
	}
	return s.gpu.with(func() error { return s.gpu.drv.streamSynchronize.callValues(s.handle).err("synchronizing a stream") })
}

// Close implements Stream. Closing twice is an error and destroys nothing.
func (s *gpuStream) Close() error {
	if s.closed.Swap(true) {
		return errStreamClosed
	}
	return s.gpu.with(func() error { return s.gpu.drv.streamDestroy.call(s.handle).err("destroying a stream") })
}

// gpuEvent is a CUDA event.
type gpuEvent struct {
	gpu    *GPU
	handle uintptr // CUevent
	closed atomic.Bool
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
	if e.closed.Load() {
		return errEventClosed
	}
	stream, err := e.gpu.streamHandle(s)
	if err != nil {
		return fmt.Errorf("recording an event of %s: %w", e.gpu.Name(), err)
	}
	return e.gpu.with(func() error { return e.gpu.drv.eventRecord.callValues(e.handle, stream).err("recording an event") })
}

// Synchronize implements Event.
func (e *gpuEvent) Synchronize() error {
	if e.closed.Load() {
		return errEventClosed
	}
	return e.gpu.with(func() error { return e.gpu.drv.eventSynchronize.callValues(e.handle).err("waiting for an event") })
}

// Since implements Event.
func (e *gpuEvent) Since(start Event) (time.Duration, error) {
	s, ok := start.(*gpuEvent)
	switch {
	case start == nil:
		return 0, errors.New("timing from a nil Event")
	case !ok || s.gpu != e.gpu:
		return 0, errors.New("timing events of different devices")
	}
	if e.closed.Load() || s.closed.Load() {
		return 0, errEventClosed
	}
	var ms float32
	err := e.gpu.with(func() error {
		return e.gpu.drv.eventElapsed.call(uintptr(unsafe.Pointer(&ms)), s.handle, e.handle).err("timing between events")
	})
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}

// Close implements Event. Closing twice is an error and destroys nothing.
func (e *gpuEvent) Close() error {
	if e.closed.Swap(true) {
		return errEventClosed
	}
	return e.gpu.with(func() error { return e.gpu.drv.eventDestroy.call(e.handle).err("destroying an event") })
}
