package runtime

import (
	"fmt"
	"sync"
	"unsafe"
)

// Launch queues f on the GPU with args, after checking them against f's
// parameters. See Device.
func (g *GPU) Launch(f Function, cfg LaunchConfig, args ...any) error {
	if f == nil {
		return fmt.Errorf("%w on %s", errNilFunction, g.Name())
	}
	if err := g.opened(); err != nil {
		return fmt.Errorf("launching kernel %s: %w", f.Name(), err)
	}
	gf, ok := f.(*gpuFunction)
	if !ok || gf.gpu != g {
		return fmt.Errorf("launching kernel %s on %s: it was not loaded there", f.Name(), g.Name())
	}
	stream, err := g.streamHandle(cfg.Stream)
	if err != nil {
		return fmt.Errorf("launching kernel %s on %s: %w", gf.name, g.Name(), err)
	}
	var boundStore [inlineArgs]boundArg
	bound, err := gf.sig.bind(gf.name, g, args, boundStore[:])
	if err != nil {
		return err
	}
	blocks, err := gf.grid.size(gf.name, cfg, bound)
	if err != nil {
		return err
	}
	if err := cancelled(cfg.Context, gf.name, g); err != nil {
		return err
	}
	return g.launch(gf, bound, blocks, stream)
}

// launch calls cuLaunchKernel with the arguments' memory held, so that a
// concurrent Free cannot release it during the call.
func (g *GPU) launch(f *gpuFunction, bound []boundArg, blocks int, stream uintptr) error {
	var heldStore [inlineArgs]*Mem
	held, err := hold(bound, heldStore[:])
	if err != nil {
		return fmt.Errorf("launching kernel %s: %w", f.name, err)
	}
	defer release(held)
	// Each value sits at the start of its own 8-byte slot (little-endian),
	// and params[i] points at the i-th value, as cuLaunchKernel expects.
	// The memory handed to the driver comes from a pool, so that a launch
	// allocates none.
	mem := launchMemPool.Get().(*launchMem)
	defer launchMemPool.Put(mem)
	slots := mem.slots[:0]
	for _, a := range bound {
		if a.mem == nil {
			slots = append(slots, a.value.Bits)
			continue
		}
		ptr, err := g.devicePtr(a.mem, a.off)
		if err == nil {
			err = a.param.checkAlign("device address", ptr)
		}
		if err != nil {
			return fmt.Errorf("launching kernel %s: %w", f.name, err)
		}
		slots = append(slots, ptr, uint64(a.n))
	}
	params := mem.params[:0]
	for i := range slots {
		params = append(params, unsafe.Pointer(&slots[i]))
	}
	mem.slots, mem.params = slots, params // kept, grown, for the next launch
	return g.with(func() error {
		r := g.drv.launchKernel.callValues(f.fn, uintptr(blocks), 1, 1, uintptr(f.threads), 1, 1, uintptr(f.shared),
			stream, uintptr(unsafe.Pointer(unsafe.SliceData(params))), 0)
		if r.code == 0 {
			return nil
		}
		return r.err(fmt.Sprintf("launching kernel %s with %d blocks of %d threads", f.name, blocks, f.threads))
	})
}

// inlineArgs is the number of a launch's arguments whose bookkeeping lives
// on the launching goroutine's stack; a launch with more allocates it.
const inlineArgs = 16

// launchMem is the memory a launch hands cuLaunchKernel: a slot for each
// value (a scalar, or a buffer's address and length) and a pointer to each
// slot.
type launchMem struct {
	slots  []uint64
	params []unsafe.Pointer
}

// launchMemPool keeps launchMem between launches.
var launchMemPool = sync.Pool{New: func() any {
	return &launchMem{slots: make([]uint64, 0, 2*inlineArgs), params: make([]unsafe.Pointer, 0, 2*inlineArgs)}
}}
