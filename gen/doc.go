// Package gen writes the files a Go package of kernels ships with: one
// CUDA C file per kernel (<kernel>.cu) and one Go file of typed launchers
// (<package>_launch.go), both generated, both committed, in the style of
// avo and go:generate.
//
// # The Kernels convention
//
// A package of kernels defines
//
//	func Kernels() []*dsl.Kernel
//
// returning a fresh builder of every kernel it ships (each call builds new
// ones). A file of the package carries the generator hook
//
//	//go:generate go tool obsgen run .
//
// (obsgen being a tool of the package's module: `go get -tool
// github.com/obsidian-go/obsidian/cmd/obsgen` adds the line
// `tool github.com/obsidian-go/obsidian/cmd/obsgen` to its go.mod),
// and `go generate` then writes, into the package's folder (the .cu files
// into another with obsgen run -o), <kernel>.cu for every kernel and
// <package>_launch.go with one launcher per kernel:
//
//	func Histogram(dev runtime.Device, cfg runtime.LaunchConfig, keys *runtime.Buffer[uint32], lo uint32, ...) error
//
// obsgen does this by writing a small driver program that imports the
// package and calls Main with its Kernels function; Main builds every
// kernel, reporting each mistake at the user's Go line, and calls Write.
//
// A launcher embeds the kernel's CUDA text, its signature, its threads per
// block and its shared memory. On a *runtime.GPU it loads that text with
// LoadCUDA (through the runtime's compile cache) and keeps the function
// for that device in a cache that does not keep closed devices alive
// (package launch). On any
// other device (runtime.CPU()) it needs the IR: it calls the package's
// Kernels, builds the kernel of its name once, checks that it still prints
// as the embedded CUDA text (so a launcher out of date with its kernel is an
// error, not a silent difference between devices) and loads it with
// Device.Load. When cfg.Blocks is 0 the launcher computes the number of
// blocks from the kernel's Blocks expression, translated into Go code with
// the IR's semantics (wrap-around arithmetic; division by zero and shifts
// out of range are errors).
//
// The driver program compiles, of the package, only what Kernels needs
// (KernelSources, given to the go command as an overlay): the launcher
// file is left out, and so is every declaration that calls a launcher, so
// that a package whose launcher file is missing or out of date can still be
// built to make it. The package's files call its launchers like any other
// Go code, with no build constraint.
//
// Launchers are named after their kernels with the first letter of each
// part upper-cased (histogram: Histogram, shift_by: ShiftBy); their
// helpers' names begin with obsgen. Before writing anything, Main reads the
// package's own files (ReadScope) and checks every name the launcher file
// would take against them (LauncherFile): a kernel whose launcher would be
// called Kernels or would have the name of something the package declares,
// two kernels whose launchers would share a name, or a package declaring a
// predeclared identifier the launchers use (max, error, ...) is a
// *NameClashError saying which kernel or name to rename. When the package
// declares the name of one of the file's imports (launch, runtime, ir,
// math), the file imports that package as obsgen<name> instead.
//
// Main replaces only files obsgen generated for the same package (a file
// that does not begin with Header, or was made for another package, is an
// error), and removes only the stale .cu files the package made, so that
// several packages may write their .cu files into one folder
// (Package.CUDADir).
package gen
