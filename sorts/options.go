package sorts

// Option configures a Sorter made by New.
type Option func(*config)

// config is what the options set.
type config struct {
	paper    bool
	cpuLimit uint64
}

// Paper makes the Sorter's CountingSort, OccurrenceSort, Histogram, Scan
// and the sorts built on them run the paper's kernels as written (one
// global atomic per key, one thread per value in reconstruct) instead of
// the fast pipeline: for comparing the two. PaperCountingSort and
// PaperOccurrenceSort run them whatever the options.
func Paper() Option { return func(c *config) { c.paper = true } }

// DefaultCPUMemoryLimit is the CPU evaluator's memory limit of a Sorter
// made without CPUMemoryLimit: 4 GiB.
const DefaultCPUMemoryLimit = 4 << 30

// CPUMemoryLimit sets the most host memory one call of the Sorter may take
// on a device other than a GPU (the CPU evaluator of runtime.CPU), as
// estimated before the call allocates anything; a call estimated to take
// more returns an error wrapping ErrTooLarge at once. 0 removes the limit.
//
// The evaluator keeps a record of about 64 bytes for every element a
// launch writes and runs about half a microsecond per element, so a call
// costs about 128 bytes and half a microsecond per key, and a counting
// sort (or the paper's occurrence sort) as much again per value of its
// range: a counting sort over 2^30 values would take some 140 GiB and ten
// minutes. The fast occurrence sort keeps a bit per value and takes about
// 5 bytes, but still half a microsecond, per value.
func CPUMemoryLimit(bytes uint64) Option { return func(c *config) { c.cpuLimit = bytes } }
