package runtime

import (
	"fmt"
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
	var stream uintptr
	if cfg.Stream != nil {
		s, ok := cfg.Stream.(*gpuStream)
		if !ok || s.gpu != g {
			return fmt.Errorf("launching kernel %s on %s: the stream is not one of its streams", gf.name, g.Name())
		}
		if s.closed.Load() {
			return fmt.Errorf("launching kernel %s on %s: %w", gf.name, g.Name(), errStreamClosed)
		}
		stream = s.handle
	}
	bound, err := gf.sig.bind(gf.name, g, args)
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
	release, err := hold(bound)
	if err != nil {
		return fmt.Errorf("launching kernel %s: %w", f.name, err)
	}
	defer release()
	// Each value sits at the start of its own 8-byte slot (little-endian),
	// and params[i] points at the i-th value, as cuLaunchKernel expects.
	slots := make([]uint64, 0, 2*len(bound))
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
	params := make([]unsafe.Pointer, len(slots))
	for i := range slots {
		params[i] = unsafe.Pointer(&slots[i])
	}
	return g.with(func() error {
		return g.drv.launchKernel.call(f.fn, uintptr(blocks), 1, 1, uintptr(f.threads), 1, 1, uintptr(f.shared),
			stream, uintptr(unsafe.Pointer(unsafe.SliceData(params))), 0).errf("launching kernel %s with %d blocks of %d threads", f.name, blocks, f.threads)
	})
}
