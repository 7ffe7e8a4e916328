package runtime

import (
	"bufio"
	"fmt"
	"math"
	"os"
	rdebug "runtime/debug"
	"strconv"
	"strings"

	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
)

// CPUOption configures the device CPU returns.
type CPUOption func(*cpuDevice)

// CPUMemoryLimit sets the most bytes a CPU device holds at once: the sum of
// its live allocations and, during a launch, the evaluator's estimate of the
// state it keeps for the launch (see the package documentation). A request
// beyond it fails with an error wrapping ErrOutOfMemory rather than
// exhausting the machine. A buffer dropped without Free counts until the
// garbage collector has released it. A negative limit is taken as 0;
// math.MaxInt64 lifts the limit.
func CPUMemoryLimit(bytes int64) CPUOption {
	return func(d *cpuDevice) { d.limit = max(bytes, 0) }
}

// fallbackCPUMemoryLimit is the CPU device's limit where the machine's
// memory cannot be read.
const fallbackCPUMemoryLimit = 4 << 30

// DefaultCPUMemoryLimit returns the limit a CPU device has unless
// CPUMemoryLimit sets another: the physical memory available now
// (MemAvailable in /proc/meminfo), or less where the process's cgroup
// (memory.max less memory.current) or the Go memory limit (GOMEMLIMIT)
// allows less; 4 GiB where none of them can be read.
func DefaultCPUMemoryLimit() int64 {
	limit := int64(math.MaxInt64)
	if v, ok := memAvailable(readSmallFile("/proc/meminfo")); ok {
		limit = v
	}
	if v, ok := cgroupAvailable(readSmallFile("/sys/fs/cgroup/memory.max"), readSmallFile("/sys/fs/cgroup/memory.current")); ok {
		limit = min(limit, v)
	}
	limit = min(limit, rdebug.SetMemoryLimit(-1))
	if limit == math.MaxInt64 {
		return fallbackCPUMemoryLimit
	}
	return limit
}

// readSmallFile returns the text of a file of /proc or /sys, "" when it
// cannot be read.
func readSmallFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// memAvailable returns the MemAvailable figure of /proc/meminfo's text, in
// bytes.
func memAvailable(meminfo string) (int64, bool) {
	sc := bufio.NewScanner(strings.NewReader(meminfo))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 || fields[0] != "MemAvailable:" || fields[2] != "kB" {
			continue
		}
		kb, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil || kb < 0 || kb > math.MaxInt64>>10 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// cgroupAvailable returns how many more bytes a cgroup (v2) whose
// memory.max and memory.current read as given may use; false when it has
// no limit or the files do not parse.
func cgroupAvailable(maxText, currentText string) (int64, bool) {
	limit, err1 := strconv.ParseInt(strings.TrimSpace(maxText), 10, 64)
	used, err2 := strconv.ParseInt(strings.TrimSpace(currentText), 10, 64)
	if err1 != nil || err2 != nil || limit < 0 || used < 0 {
		return 0, false
	}
	return max(limit-used, 0), true
}

// CPULaunchBytesPerElement is what a CPU device counts against its memory
// limit, while a launch runs, for every element of the array arguments the
// kernel may write: the evaluator's race-detection word (eval.StateBytes
// adds the state of the blocks running at once). A host pipeline that wants
// to refuse work up front adds it to the buffers it will allocate and
// compares the sum with the device's MemInfo.
const CPULaunchBytesPerElement = 4

// MemInfo returns how many more bytes the CPU device may hold under its
// memory limit, and the limit (see CPUMemoryLimit), as (*GPU).MemInfo
// returns a GPU's free and total memory.
func (d *cpuDevice) MemInfo() (free, total uint64, err error) {
	return uint64(max(d.limit-d.held.Load(), 0)), uint64(d.limit), nil
}

// launchStateBytes estimates, in bytes, what the evaluator allocates for a
// launch of k beyond its buffers while workers of its blocks run at once
// (eval.StateBytes): the race-detection state of every element of the
// array arguments it may write (n elements each, in order of k.Params),
// and the state of each block running at once, with its shared memory
// (TestCPULaunchStateEstimate measures it again). The sum cannot
// overflow: bind admits arrays of fewer than 2^32 elements, and codegen
// admits shared memory within CPUMaxSharedBytes.
func launchStateBytes(k *ir.Kernel, n []int, workers int) int64 {
	return eval.StateBytes(k, n, workers)
}

// reserveLaunch reserves the evaluator's state for a launch of k on blocks
// blocks (launchStateBytes) and returns how many of its blocks may run at
// once and the bytes reserved: as many as GOMAXPROCS allows, or, where d's
// limit leaves too little room for their state, half as many, and so on
// down to one; the error of one that does not fit.
func (d *cpuDevice) reserveLaunch(k *ir.Kernel, n []int, blocks int) (workers int, state int64, err error) {
	for workers = eval.Workers(blocks); ; workers = max(1, workers/2) {
		state = launchStateBytes(k, n, workers)
		if err = d.reserve(state); err == nil || workers == 1 {
			return workers, state, err
		}
	}
}

// reserve counts size more bytes as held by d, or returns an error wrapping
// ErrOutOfMemory when that would pass d's limit.
func (d *cpuDevice) reserve(size int64) error {
	for {
		held := d.held.Load()
		if size > d.limit-held {
			return fmt.Errorf("%w: %s holds %d bytes and may hold %d (CPUMemoryLimit sets the limit)", ErrOutOfMemory, d.Name(), held, d.limit)
		}
		if d.held.CompareAndSwap(held, held+size) {
			return nil
		}
	}
}

// unreserve returns size bytes counted by reserve.
func (d *cpuDevice) unreserve(size int64) { d.held.Add(-size) }
