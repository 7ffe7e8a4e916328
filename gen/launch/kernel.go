package launch

import (
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"sync"
	"weak"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// Kernel is a generated kernel: its CUDA text and what launching it takes.
// Its exported fields are set once, by the generated code; its methods are
// safe for use by several goroutines.
//
// A Kernel keeps the function it loaded on each device for as long as the
// garbage collector lets it, and no longer than the device lives: the
// cache holds functions (and their devices) only weakly, so a device that
// is closed and dropped is collected, and its function with it. A
// function collected while its device is still in use is loaded again on
// the next launch there (from the compile cache on a GPU).
type Kernel struct {
	Name        string            // the kernel's name in its CUDA text
	CUDA        string            // the kernel's CUDA text, as codegen printed it
	Signature   runtime.Signature // the kernel's parameters
	Threads     int               // threads per block
	SharedBytes int               // shared memory per block, in bytes
	// Kernels is the package's Kernels function: on devices other than
	// GPUs the kernel is built from the builder of its name.
	Kernels func() []*dsl.Kernel

	mu    sync.Mutex // held while loading: one load at a time
	built *ir.Kernel // the IR, once built (under mu)

	cacheMu sync.Mutex                       // guards loaded; never held while loading
	loaded  map[uintptr]weak.Pointer[loaded] // by the address of the device
}

// loaded is a function loaded on dev.
type loaded struct {
	dev runtime.Device
	fn  runtime.Function
}

// slot names an entry of Kernel.loaded, for the cleanup that removes it.
type slot struct {
	device uintptr
	entry  weak.Pointer[loaded]
}

// Function returns the kernel loaded on dev, loading it on the first call
// for dev (and again after the garbage collector dropped it).
func (k *Kernel) Function(dev runtime.Device) (runtime.Function, error) {
	v := reflect.ValueOf(dev)
	if dev == nil || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("loading kernel %s: no device", k.Name)
	}
	if v.Kind() != reflect.Pointer { // devices are pointers; another is loaded on every call
		k.mu.Lock()
		defer k.mu.Unlock()
		return k.load(dev)
	}
	addr := v.Pointer()
	if f := k.cached(addr, dev); f != nil {
		return f, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if f := k.cached(addr, dev); f != nil { // loaded while this call waited
		return f, nil
	}
	f, err := k.load(dev)
	if err != nil {
		return nil, err
	}
	l := &loaded{dev: dev, fn: f}
	entry := weak.Make(l)
	k.cacheMu.Lock()
	if k.loaded == nil {
		k.loaded = map[uintptr]weak.Pointer[loaded]{}
	}
	k.loaded[addr] = entry
	k.cacheMu.Unlock()
	goruntime.AddCleanup(l, k.forget, slot{addr, entry})
	return f, nil
}

// cached returns the function cached for dev, at address addr, or nil.
func (k *Kernel) cached(addr uintptr, dev runtime.Device) runtime.Function {
	k.cacheMu.Lock()
	defer k.cacheMu.Unlock()
	if l := k.loaded[addr].Value(); l != nil && l.dev == dev {
		return l.fn
	}
	return nil
}

// forget removes the entry of s once the garbage collector has dropped it,
// unless a newer entry took its place. It runs on the runtime's cleanup
// goroutine, so it never waits for a load.
func (k *Kernel) forget(s slot) {
	k.cacheMu.Lock()
	defer k.cacheMu.Unlock()
	if k.loaded[s.device] == s.entry {
		delete(k.loaded, s.device)
	}
}

func (k *Kernel) load(dev runtime.Device) (runtime.Function, error) {
	if gpu, ok := dev.(*runtime.GPU); ok {
		return gpu.LoadCUDA(k.CUDA, k.Name, k.Signature, k.SharedBytes, k.Threads)
	}
	built, err := k.build()
	if err != nil {
		return nil, err
	}
	return dev.Load(built)
}

// build returns the kernel's IR from the package's Kernels, built once, and
// checks that it still prints as the embedded CUDA text.
func (k *Kernel) build() (*ir.Kernel, error) {
	if k.built != nil {
		return k.built, nil
	}
	if k.Kernels == nil {
		return nil, fmt.Errorf("kernel %s: no Kernels function to build it from", k.Name)
	}
	for _, b := range k.Kernels() {
		if b == nil || b.Name() != k.Name {
			continue
		}
		built, err := b.Build()
		if err != nil {
			return nil, err
		}
		src, _, err := codegen.CUDA(built)
		if err != nil {
			return nil, err
		}
		if src != k.CUDA {
			return nil, fmt.Errorf("kernel %s has changed since its launcher was generated: run go generate", k.Name)
		}
		k.built = built
		return built, nil
	}
	return nil, fmt.Errorf("kernel %s: Kernels() has no kernel of that name: run go generate", k.Name)
}

// Launch runs the kernel on dev with args, one per parameter. When
// cfg.Blocks is 0 the number of blocks is blocks(): the kernel's Blocks
// expression, which the generated code translates into Go (nil when that
// depends on more than the parameters: cfg.Blocks must then be set).
func (k *Kernel) Launch(dev runtime.Device, cfg runtime.LaunchConfig, blocks func() (int, error), args ...any) error {
	for i, a := range args {
		if v := reflect.ValueOf(a); a == nil || v.Kind() == reflect.Pointer && v.IsNil() {
			return fmt.Errorf("launching kernel %s: argument %d is nil", k.Name, i)
		}
	}
	if cfg.Blocks == 0 && blocks == nil {
		return fmt.Errorf("launching kernel %s: its number of blocks: %w", k.Name, ErrBlocksUnknown)
	}
	if cfg.Blocks == 0 {
		n, err := blocks()
		if err != nil {
			return fmt.Errorf("launching kernel %s: computing its number of blocks: %w", k.Name, err)
		}
		cfg.Blocks = n
	}
	f, err := k.Function(dev)
	if err != nil {
		return err
	}
	return dev.Launch(f, cfg, args...)
}

// ErrBlocksUnknown is returned (wrapped) by a launch without
// LaunchConfig.Blocks of a kernel whose number of blocks depends on more
// than its parameters (a variable assigned in its body, an array element).
var ErrBlocksUnknown = errors.New("it depends on more than the parameters: set LaunchConfig.Blocks")
