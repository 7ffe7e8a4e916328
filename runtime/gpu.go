package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// GPU is an NVIDIA GPU driven through the CUDA driver API, using the
// device's primary context. It implements Device; all methods are safe to
// call from several goroutines.
type GPU struct {
	drv     *driverAPI
	ordinal int
	device  int32   // CUdevice
	ctx     uintptr // CUcontext
	props   Properties
	cache   *kernelCache
	closed  atomic.Bool
	// use is read-locked by every driver call through with, and
	// write-locked by Close to wait for those in flight.
	use sync.RWMutex
}

// Properties describes a GPU.
type Properties struct {
	Name                string
	Major, Minor        int // compute capability
	Multiprocessors     int
	MaxThreadsPerBlock  int
	SharedPerBlock      int // bytes of shared memory a block gets by default
	SharedPerBlockOptIn int // bytes a block may use when the kernel opts in
	TotalMemory         uint64
	FreeMemory          uint64 // when Properties was called
	DriverVersion       int    // e.g. 13000 for CUDA 13.0
}

// errClosed is returned for any use of a closed GPU.
var errClosed = errors.New("the GPU has been closed")

// errNotOpened is returned for any use of a nil or zero GPU.
var errNotOpened = errors.New("the GPU was not opened with Open (it is nil or a zero GPU)")

// opened returns errNotOpened for a nil or zero GPU, else nil.
func (g *GPU) opened() error {
	if g == nil || g.drv == nil {
		return errNotOpened
	}
	return nil
}

// Open binds the CUDA driver (libcuda.so.1, then libcuda.so) and opens GPU
// number ordinal. Without a driver or a GPU it returns an error that says
// what was tried.
func Open(ordinal int) (*GPU, error) {
	drv, err := loadDriver()
	if err != nil {
		return nil, fmt.Errorf("opening GPU %d: %w", ordinal, err)
	}
	var count int32
	if err := drv.deviceGetCount.call(uintptr(unsafe.Pointer(&count))).err("counting GPUs"); err != nil {
		return nil, fmt.Errorf("opening GPU %d: %w", ordinal, err)
	}
	if ordinal < 0 || ordinal >= int(count) {
		return nil, fmt.Errorf("opening GPU %d: the driver sees %d GPUs", ordinal, count)
	}
	g := &GPU{drv: drv, ordinal: ordinal, cache: newKernelCache()}
	if err := drv.deviceGet.call(uintptr(unsafe.Pointer(&g.device)), uintptr(ordinal)).errf("getting GPU %d", ordinal); err != nil {
		return nil, err
	}
	if err := drv.primaryCtxRetain.call(uintptr(unsafe.Pointer(&g.ctx)), uintptr(g.device)).errf("retaining the primary context of GPU %d", ordinal); err != nil {
		return nil, err
	}
	if err := g.readProperties(); err != nil {
		_ = g.Close()
		return nil, err
	}
	return g, nil
}

func (g *GPU) readProperties() error {
	name := make([]byte, 256)
	if err := g.drv.deviceGetName.call(uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)), uintptr(g.device)).err("asking the GPU's name"); err != nil {
		return err
	}
	g.props.Name = goString(&name[0])
	g.props.DriverVersion = g.drv.version
	var total uint64
	if err := g.drv.deviceTotal.call(uintptr(unsafe.Pointer(&total)), uintptr(g.device)).errf("asking the memory of GPU %d", g.ordinal); err != nil {
		return err
	}
	g.props.TotalMemory = total
	for _, a := range []struct {
		attr int
		dst  *int
	}{
		{attrComputeCapabilityMajor, &g.props.Major},
		{attrComputeCapabilityMinor, &g.props.Minor},
		{attrMultiprocessorCount, &g.props.Multiprocessors},
		{attrMaxThreadsPerBlock, &g.props.MaxThreadsPerBlock},
		{attrMaxSharedPerBlock, &g.props.SharedPerBlock},
		{attrMaxSharedPerBlockOptin, &g.props.SharedPerBlockOptIn},
	} {
		var v int32
		if err := g.drv.deviceGetAttribute.call(uintptr(unsafe.Pointer(&v)), uintptr(a.attr), uintptr(g.device)).errf("asking attribute %d of GPU %d", a.attr, g.ordinal); err != nil {
			return err
		}
		*a.dst = int(v)
	}
	return nil
}

// Name returns the GPU's name and ordinal, e.g. "NVIDIA H200 (GPU 0)".
func (g *GPU) Name() string {
	if g.opened() != nil {
		return "unopened GPU"
	}
	return fmt.Sprintf("%s (GPU %d)", g.props.Name, g.ordinal)
}

// Properties returns the GPU's properties, with its memory as of now.
func (g *GPU) Properties() (Properties, error) {
	if err := g.opened(); err != nil {
		return Properties{}, err
	}
	p := g.props
	var err error
	p.FreeMemory, p.TotalMemory, err = g.MemInfo()
	return p, err
}

// MemInfo returns the GPU's free and total memory in bytes
// (cuMemGetInfo_v2).
func (g *GPU) MemInfo() (free, total uint64, err error) {
	err = g.with(func() error {
		return g.drv.memInfo.call(uintptr(unsafe.Pointer(&free)), uintptr(unsafe.Pointer(&total))).err("asking free GPU memory")
	})
	return free, total, err
}

// Synchronize waits for all work on the GPU to finish.
func (g *GPU) Synchronize() error {
	return g.with(func() error { return g.drv.ctxSynchronize.callValues().err("synchronizing the GPU") })
}

// Close waits for the GPU's work, unloads its kernels and releases its
// primary context. Calls running on the GPU from other goroutines finish
// first; later ones return an error. Closing twice is an error.
func (g *GPU) Close() error {
	if err := g.opened(); err != nil {
		return err
	}
	if g.closed.Swap(true) {
		return errClosed
	}
	// Once the write lock is had, no call is inside with and every later one
	// sees closed, so the teardown runs alone. The lock is let go before
	// the kernels are unloaded: that takes the cache's mutex, which a load
	// holds while it waits to enter with.
	g.use.Lock()
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	errs := []error{
		g.drv.ctxSetCurrent.call(g.ctx).err("making the GPU's context current"),
		g.drv.ctxSynchronize.call().err("synchronizing the GPU"),
	}
	g.use.Unlock()
	errs = append(errs, g.cache.unload(g.drv)...)
	errs = append(errs, g.drv.primaryCtxRelease.call(uintptr(g.device)).errf("releasing the primary context of GPU %d", g.ordinal))
	return errors.Join(errs...)
}

// with runs f on an OS thread where the GPU's context is current, holding
// the read lock of g.use so that Close waits for it. The CUDA context is a
// per-thread setting, so every entry point goes through here. f must not
// call with itself: a read lock taken again while Close waits for the
// write lock would deadlock.
func (g *GPU) with(f func() error) error {
	if err := g.opened(); err != nil {
		return err
	}
	g.use.RLock()
	defer g.use.RUnlock()
	if g.closed.Load() {
		return errClosed
	}
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	if err := g.drv.ctxSetCurrent.callValues(g.ctx).err("making the GPU's context current"); err != nil {
		return err
	}
	return f()
}
