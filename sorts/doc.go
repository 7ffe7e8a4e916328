// Package sorts runs the algorithms of "Counting and Occurrence Sort for
// GPUs using an Embedded Language" (Svenningsson, Svensson, Sheeran, FHPC'13)
// on a device: a Sorter launches the kernels of the package
// sorts/kernels, which are written in the DSL (Sklansky's prefix sum,
// sklanskyMax and distribute, histogram, occurs, reconstruct), and owns
// the scratch memory between them. This package is the host pipeline; it
// builds no kernel code of its own.
//
// A Sorter runs, by default, a faster pipeline built from the same pieces:
// the histogram and occurs keep their table in shared memory (a copy per
// warp for small ranges) and merge it into global memory once per block,
// occurs keeps one bit per value and sets it only when it is clear, and
// counting sort's reconstruct gives every block an equal tile of the output
// (it marks the runs that start in its tile and fills it by a max-scan),
// and the scans read their data twice and write it once (tile totals, then
// each 4096-element tile rescanned from its offset in registers and warp
// shuffles). For ranges too wide for shared memory the histogram is built
// in windows of 2^23 bins, one pass over the keys each, so that its atomics
// stay in the L2 cache. In every histogram and occurs kernel of the fast
// pipeline, the lanes of a warp that hit one cell (a counter, or a word of
// the bitset) combine their updates before one atomic, where two
// neighbouring lanes share a cell (arrays.WarpAggregateHot): hot keys, a
// few values that hold most of the keys, cost an atomic per distinct value
// of a warp instead of one per key, and keys of a wide range two cheap
// warp-wide tests. Sort and SortRange of at most
// kernels.BlockSortMaxKeys keys take one launch instead: a radix sort in one
// block (kernels.BlockSortKernel), whatever the keys' span for Sort. The
// option Paper, and the methods PaperCountingSort and PaperOccurrenceSort,
// run the paper's kernels as written.
//
// Every per-key kernel checks its key against the declared range: a key
// outside it sets a flag that the host turns into an error, and is never
// used as an index.
//
// # Bad input and cost
//
// Every method of a Sorter checks its arguments before it touches the
// device and returns an error that names what was wrong: a *BufferError
// for a buffer that is nil, freed, an out-of-range view, on another device
// than the Sorter's, of the wrong length, or sharing memory with another
// argument where that breaks the call; ErrBadRange for a range that is
// empty, inverted, wider than MaxBins or (for a histogram) past 2^32-1;
// ErrKeyOutOfRange for a key outside its range; ErrNoDevice and ErrClosed
// for a Sorter that cannot run. A call then reserves the scratch memory it
// needs (8 bytes per value of a counting sort's range, three bits per value
// of the fast occurrence sort's, a few words per 4096 keys) once it
// has checked that the device can give it: a GPU's free memory, or what
// the CPU evaluator's memory limit leaves (runtime.CPUMemoryLimit) for the
// scratch and the state its launches keep (runtime.CPULaunchBytesPerElement);
// ErrTooLarge otherwise, before anything is allocated or launched. When an allocation fails all the same, the Sorter
// frees its scratch and returns the device's error.
//
// On the CPU evaluator a call takes time in proportion to its keys and its
// range (see the runtime package's documentation for the evaluator's cost);
// a device made with runtime.CPUContext stops a call when its context ends.
//
// A Sorter runs one call at a time: calls from several goroutines wait for
// each other, as they share its scratch.
package sorts
