package runtime

import (
	"fmt"
	"unsafe"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/ir"
)

// gpuFunction is a kernel loaded on a GPU.
type gpuFunction struct {
	gpu     *GPU
	fn      uintptr // CUfunction
	name    string
	sig     Signature
	threads int
	shared  int
	grid    *gridCount // the number of blocks of a launch
	// resident is the number of its blocks the GPU runs at once: blocks
	// per multiprocessor (by the driver's occupancy calculator) times
	// multiprocessors.
	resident int
}

// ResidentBlocks returns how many blocks of f (loaded on g) g runs at
// once: the blocks its registers, shared memory and threads let each
// multiprocessor hold, by the driver's occupancy calculator, times the
// multiprocessors. A kernel that spreads its work over that many blocks
// runs in one wave, with no second, partly filled one. It is 0 for a
// function that g did not load.
func (g *GPU) ResidentBlocks(f Function) int {
	if gf, ok := f.(*gpuFunction); ok && gf.gpu == g {
		return gf.resident
	}
	return 0
}

// Name implements Function.
func (f *gpuFunction) Name() string { return f.name }

// Signature implements Function.
func (f *gpuFunction) Signature() Signature { return f.sig }

// Threads implements Function.
func (f *gpuFunction) Threads() int { return f.threads }

// SharedBytes implements Function.
func (f *gpuFunction) SharedBytes() int { return f.shared }

// Load compiles k for the GPU (codegen, then NVRTC, both cached) and loads
// it. A CUDA compile failure is a *CompileError.
func (g *GPU) Load(k *ir.Kernel) (Function, error) {
	if err := g.opened(); err != nil {
		return nil, err
	}
	compiled, err := codegen.Compile(k, codegen.Target{MaxSharedBytes: g.props.SharedPerBlockOptIn})
	if err != nil {
		return nil, err
	}
	src := codegen.Print(compiled)
	f, err := g.load(src, compiled.Name, SignatureOf(compiled), compiled.SharedBytes, compiled.Threads, compiled.Pos)
	if err != nil {
		return nil, err
	}
	f.grid = newGridCount(compiled)
	return f, nil
}

// LoadCUDA loads a kernel from CUDA text printed earlier (as generated
// launchers embed it): src defines `extern "C" __global__ void
// kernelName(...)` taking sig's parameters, and launches use threads threads
// and sharedBytes bytes of dynamic shared memory per block. Launches of the
// returned function must set LaunchConfig.Blocks.
func (g *GPU) LoadCUDA(src, kernelName string, sig Signature, sharedBytes, threads int) (Function, error) {
	if err := g.opened(); err != nil {
		return nil, fmt.Errorf("loading kernel %s: %w", kernelName, err)
	}
	if err := sig.validate(); err != nil {
		return nil, fmt.Errorf("loading kernel %s: %w", kernelName, err)
	}
	return g.load(src, kernelName, sig, sharedBytes, threads, ir.Pos{})
}

func (g *GPU) load(src, name string, sig Signature, shared, threads int, pos ir.Pos) (*gpuFunction, error) {
	if threads < 1 || threads > g.props.MaxThreadsPerBlock {
		return nil, fmt.Errorf("loading kernel %s: %d threads per block; %s takes 1 to %d", name, threads, g.Name(), g.props.MaxThreadsPerBlock)
	}
	if shared < 0 || shared > g.props.SharedPerBlockOptIn {
		return nil, fmt.Errorf("loading kernel %s: %d bytes of shared memory per block; %s has at most %d", name, shared, g.Name(), g.props.SharedPerBlockOptIn)
	}
	module, err := g.module(src, name, pos)
	if err != nil {
		return nil, err
	}
	f := &gpuFunction{gpu: g, name: name, sig: sig, threads: threads, shared: shared, grid: newGridCount(nil)}
	err = g.with(func() error {
		if err := g.drv.moduleGetFunction.call(uintptr(unsafe.Pointer(&f.fn)), module, uintptr(unsafe.Pointer(cString(name)))).errf("finding kernel %s in its module", name); err != nil {
			return err
		}
		if shared > defaultSharedLimit {
			if err := g.drv.funcSetAttribute.call(f.fn, funcAttrMaxDynamicSharedSize, uintptr(shared)).errf("allowing kernel %s %d bytes of shared memory", name, shared); err != nil {
				return err
			}
		}
		var perMultiprocessor int32
		if err := g.drv.occupancyMaxBlocks.call(uintptr(unsafe.Pointer(&perMultiprocessor)), f.fn, uintptr(threads), uintptr(shared)).errf("asking the occupancy of kernel %s", name); err != nil {
			return err
		}
		f.resident = int(perMultiprocessor) * g.props.Multiprocessors
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// module returns the loaded module of src: from memory, from the disk cache
// or compiled by NVRTC.
func (g *GPU) module(src, name string, pos ir.Pos) (uintptr, error) {
	nv, err := loadNVRTC()
	if err != nil {
		return 0, fmt.Errorf("compiling kernel %s: %w", name, err)
	}
	target, err := targetFor(10*g.props.Major+g.props.Minor, nv.archs)
	if err != nil {
		return 0, fmt.Errorf("compiling kernel %s: %w", name, err)
	}
	// No fused multiply-add: every float operation rounds on its own, as in
	// the CPU evaluator, so the two devices agree bit for bit.
	options := []string{"--gpu-architecture=" + target.arch, "--std=c++17", "--fmad=false"}
	key := keyOf(src, options, target.arch, nv.versionString())
	ext := ".ptx"
	if target.cubin {
		ext = ".cubin"
	}
	c := g.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if m, ok := c.modules[key]; ok {
			c.memoryHits.Add(1)
			return m, nil
		}
		pending, ok := c.compiling[key]
		if !ok {
			break
		}
		c.mu.Unlock()
		<-pending.done
		c.mu.Lock()
		if pending.err != nil {
			return 0, pending.err
		}
	}
	if image := c.readDisk(key, ext); image != nil {
		if m, err := g.loadImage(image, name); err == nil {
			c.diskHits.Add(1)
			c.modules[key] = m
			return m, nil
		}
	}
	// NVRTC compiles without the cache's mutex, so that different kernels
	// compile at once; a load of the same one waits for this compile.
	pending := &compilation{done: make(chan struct{})}
	c.compiling[key] = pending
	defer close(pending.done)
	defer delete(c.compiling, key)
	c.mu.Unlock()
	image, log, failed, err := nv.compile(src, name+".cu", target, options)
	c.mu.Lock()
	switch {
	case err != nil:
		pending.err = err
		return 0, err
	case failed:
		pending.err = &CompileError{Kernel: name, Pos: pos, Arch: target.arch, NVRTC: nv.versionString(), Log: log, Source: src}
		return 0, pending.err
	}
	c.compiles.Add(1)
	m, err := g.loadImage(image, name)
	if err != nil {
		pending.err = err
		return 0, err
	}
	c.writeDisk(key, ext, image)
	c.modules[key] = m
	return m, nil
}

// loadImage loads a CUBIN or PTX image as a module.
func (g *GPU) loadImage(image []byte, name string) (uintptr, error) {
	data := append(append([]byte(nil), image...), 0) // PTX must end in NUL
	var m uintptr
	err := g.with(func() error {
		return g.drv.moduleLoadData.call(uintptr(unsafe.Pointer(&m)), uintptr(unsafe.Pointer(&data[0]))).errf("loading the compiled kernel %s", name)
	})
	return m, err
}
