package runtime

import (
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
)

// Internals the external tests check directly.
var (
	NVRTCCandidates = nvrtcCandidates
	CompareVersions = compareVersions
	WithLengths     = withLengths
	MemAvailable    = memAvailable
	CgroupAvailable = cgroupAvailable
)

// CPULaunchStateBytes is what a launch of f, loaded on a CPU device, on
// blocks blocks with array arguments of the given lengths counts against
// the device's memory limit where the limit leaves room for as many blocks
// at once as GOMAXPROCS allows.
func CPULaunchStateBytes(f Function, lengths []int, blocks int) int64 {
	return launchStateBytes(f.(*cpuFunction).kernel, lengths, eval.Workers(blocks))
}

// CPULeastLaunchStateBytes is the least a launch of f, loaded on a CPU
// device, with array arguments of the given lengths counts against the
// device's memory limit: its state with one block at a time.
func CPULeastLaunchStateBytes(f Function, lengths []int) int64 {
	return launchStateBytes(f.(*cpuFunction).kernel, lengths, 1)
}

// TargetFor returns the --gpu-architecture value targetFor chooses and whether it
// is a CUBIN.
func TargetFor(sm int, supported []int) (string, bool, error) {
	t, err := targetFor(sm, supported)
	return t.arch, t.cubin, err
}

// KeyOf returns the cache key of a compile.
func KeyOf(src string, options []string, arch, nvrtcVersion string) [32]byte {
	return keyOf(src, options, arch, nvrtcVersion)
}

// DiskCache is a disk cache in dir, for tests of its reads and writes.
type DiskCache struct{ c *kernelCache }

// NewDiskCache returns a disk cache in dir.
func NewDiskCache(dir string) DiskCache {
	return DiskCache{&kernelCache{dir: dir, modules: map[cacheKey]uintptr{}}}
}

// Write stores image under key.
func (d DiskCache) Write(key [32]byte, image []byte) { d.c.writeDisk(key, ".cubin", image) }

// Read returns the image stored under key, or nil.
func (d DiskCache) Read(key [32]byte) []byte { return d.c.readDisk(key, ".cubin") }

// Path returns the file of the entry of key.
func (d DiskCache) Path(key [32]byte) string { return d.c.path(key, ".cubin") }

// Stats returns the cache's counters.
func (d DiskCache) Stats() CacheStats { return d.c.stats() }

// GridSize returns the blocks a launch of k (built) on d with cfg and args
// takes, and what the evaluator alone computes for its Blocks expression:
// the folded count and the evaluated one, which must agree.
func GridSize(d Device, k *ir.Kernel, cfg LaunchConfig, args ...any) (folded int, err error) {
	bound, err := SignatureOf(k).bind(k.Name, d, args, nil)
	if err != nil {
		return 0, err
	}
	return gridSize(k.Name, k, cfg, bound)
}

// GridCounter returns GridSize through one gridCount of k, which keeps its
// last count between calls.
func GridCounter(k *ir.Kernel) func(d Device, cfg LaunchConfig, args ...any) (int, error) {
	g := newGridCount(k)
	return func(d Device, cfg LaunchConfig, args ...any) (int, error) {
		bound, err := SignatureOf(k).bind(k.Name, d, args, nil)
		if err != nil {
			return 0, err
		}
		return g.size(k.Name, cfg, bound)
	}
}

// EvaluatedGridSize is GridSize by the evaluator only, never folding.
func EvaluatedGridSize(d Device, k *ir.Kernel, args ...any) (v ir.Value, err error) {
	bound, err := SignatureOf(k).bind(k.Name, d, args, nil)
	if err != nil {
		return ir.Value{}, err
	}
	lengths := map[*ir.Array]uint32{}
	evalArgs := make([]eval.Arg, len(bound))
	for i, p := range k.Params {
		if p.Array != nil {
			lengths[p.Array] = uint32(bound[i].n)
			evalArgs[i] = eval.Arg{Buffer: &eval.Buffer{Elem: p.Array.Elem}}
		} else {
			evalArgs[i] = eval.Arg{Scalar: bound[i].value}
		}
	}
	return eval.HostExpr(k, withLengths(k.Blocks, lengths), evalArgs)
}
