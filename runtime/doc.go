// Package runtime runs kernels: on an NVIDIA GPU through the CUDA driver and
// NVRTC, and on the CPU through the IR evaluator, behind one host API.
//
// The CUDA driver (libcuda) and NVRTC (libnvrtc) are bound when the program
// runs, with purego, so building needs neither cgo nor the CUDA toolkit.
// Open binds the driver and takes a GPU's primary context; the first Load
// binds NVRTC. Every driver and NVRTC failure is returned as an *Error
// naming the library call, the CUDA error and what was being done; NVRTC
// compile failures are a *CompileError quoting the offending CUDA lines.
//
// A Device allocates memory, loads kernels and launches them:
//
//	gpu, err := runtime.Open(0)       // or dev := runtime.CPU()
//	a, err := runtime.FromSlice(gpu, []float32{1, 2, 3})
//	f, err := gpu.Load(kernel)        // *ir.Kernel: compiled, cached, loaded
//	err = gpu.Launch(f, runtime.LaunchConfig{}, a, out)
//	got, err := out.ToSlice()
//
// Launch checks its arguments against the kernel's parameters (count,
// buffer or scalar, element or scalar type) before anything runs. A buffer
// argument is a *Buffer[T] or a view of one; a scalar argument is a Go
// int32, uint32, int64, uint64, float32, float64 or bool of the parameter's
// type. The grid has LaunchConfig.Blocks blocks, or when that is zero the
// kernel's Blocks expression evaluated for the arguments, clamped to
// [1, 2^31-1]. LaunchConfig.Context cancels a launch.
//
// Bad input is an error, never a panic: sizes are checked for overflow (a
// request too large for a device wraps ErrOutOfMemory), and nil or zero
// values (a nil Device, Function or *Buffer, a zero Buffer, Mem or GPU)
// make every call fail with an error saying so, or return a zero value
// where the method returns no error.
//
// (*GPU).LoadCUDA loads CUDA text printed earlier, as generated launchers
// embed it, with its Signature; launches of it are checked the same way and
// must give LaunchConfig.Blocks. Compiler describes the NVRTC found.
//
// Compiled kernels are cached in memory and on disk under
// os.UserCacheDir()/obsidian-go/kernels, keyed by the SHA-256 of the CUDA
// text, the NVRTC options, the GPU architecture and the NVRTC version; the
// environment variable OBSIDIAN_CACHE=off turns the disk cache off, as does
// (*GPU).SetCacheDir(""). Several processes may share the disk cache. Each
// entry carries a SHA-256 checksum of its key and image: an entry that is
// truncated, altered, not a regular file (a FIFO is never opened for a
// blocking read) or too large is not used but compiled again and replaced.
// (*GPU).CacheStats counts compiles, memory hits, disk hits and rejected
// disk entries.
//
// The CPU device (CPU) interprets the same kernels with the evaluator, which
// checks every launch for data races, divergent barriers and out-of-bounds
// accesses, so a host pipeline can be debugged on the CPU and run unchanged
// on a GPU. Host data is copied as little-endian bytes: the package assumes
// a little-endian host, as every platform CUDA supports is.
//
// # Cost of the CPU device
//
// The evaluator runs the blocks of a launch on as many cores as GOMAXPROCS
// allows (fewer where the device's memory limit leaves too little room for
// their state), each block's threads one warp at a time (the blocks run one after
// the other when the kernel's global atomics make the result depend on their
// order: an atomic's old value used, an exchange, a float addition). It
// compiles a Function's kernel once, at its first launch, and the later
// launches, from any goroutine, reuse what it compiled. On one core of a
// shared 2-core x86-64 machine a vector add takes about 30 ns per
// element, a block reverse through shared memory about 60, and a block that
// does nothing about 25 ns, so 2^20 threads take a few hundredths of a
// second, and a launch of 2^31-1 blocks (the most LaunchConfig.Blocks gives)
// most of a minute even when the blocks do nothing. On both cores of that
// machine a vector add of 10^7 elements takes about a third of a second, and
// a counting sort (package sorts) of 10^6 keys over 2^24 values about 2 s,
// its process peaking at about 230 MB of memory, of which 137 MB are the
// sort's buffers (TestCPUDeviceFigures measures them with -long). A launch
// holds, besides its buffers, 4 bytes per element of every array it may
// write (the state that detects data races between blocks) and, for each
// block running at once, its shared memory with about 60 bytes per shared
// element and a table of the global elements one barrier interval touches
// (up to 256 KiB; more, 40 to 130 bytes per element, for an interval that
// touches more than a few thousand elements). The device refuses, with an
// error wrapping ErrOutOfMemory, allocations and launches that would take it
// past its memory limit: DefaultCPUMemoryLimit, the physical memory
// available when it was made, unless CPUMemoryLimit sets another.
// LaunchConfig.Context cancels a long launch, between blocks and every few
// hundred loop iterations within one.
package runtime
