// Command obsbench times the library's sorts and device-wide scan on a GPU
// beside CUB and Thrust, over a grid of key counts, key types and key
// distributions, and draws the comparison.
//
// Usage:
//
//	obsbench [-quick] [-n N]... [-dist D]... [-method RE] [-runs R] [-seed S] [-cub FILE | -cub-bin PATH] [-o DIR]
//	obsbench -charts-only [-o DIR]
//
// Key counts (-n, repeatable, decimal or 2^k): by default 2^10, 2^16,
// 1000003, 2^20, 2^25 and 2^27, with every distribution: a set meant to
// fit in ten minutes on one H200, baseline included (estimated from the
// 2^20 to 2^25 timings of docs/bench); -quick takes 2^10, 2^16 and 2^20
// with the distributions T4, T8, ..., T24 and those after T24.
//
// Distributions (-dist, repeatable; by default all, in this order; the
// key type; the range [lo, max] declared for them):
//
//	T4 ... T24  uint32 uniform in [0, 2^x)                       [0, 2^x-1]
//	T32         uint32 uniform over every value                  [0, 2^32-1]
//	U64         uint64 uniform over every value                  [0, 2^64-1]
//	F32         float32 uniform in [-1, 1), on the grid of 2^-23 none
//	skewed      uint32 floor(2^32 × u^8), u uniform in [0, 1):   [0, 2^32-1]
//	            a power law, a quarter of the keys below 2^16
//	few16       uint32 drawn from 16 values drawn once from the  [min, max] of the 16
//	            whole uint32 range
//	equal       uint32 all one value v drawn once                [v, v]
//	sorted      uint32 0, 1, ..., N-1                            [0, N-1]
//	reverse     uint32 N-1, ..., 1, 0                            [0, N-1]
//	unique      uint32 a random permutation of 0, ..., N-1       [0, N-1]
//
// The keys are the very keys the CUB baseline of bench/cub makes: both
// generate them with splitmix64 from the seed as bench/cub/keys.h spells
// out (the tests build its keys_dump.cpp and compare).
//
// Methods are the entries of a table (ourMethods), each with its name, its
// rival among the baseline's methods, the key type it sorts, which keys'
// ranges it accepts, how it runs on the device buffers, and how its result
// is checked; a distribution gets every method of its key type that
// accepts its range (and, with -method, whose name matches the regular
// expression, and the baseline program, -cub-bin, then times only their
// rivals and the copy; methods for distinct keys
// only get the distributions of distinct keys). Today: Sorter.CountingSort
// (obs_counting), Sorter.EnqueueCountingSort (obs_counting_enqueued: the
// same without reading back the range check) and Sorter.OccurrenceSort
// (obs_occurrence), told the
// range [lo, max+1) and taking ranges of at most sorts.MaxBins values, the
// paper's kernels of both (obs_counting_paper, obs_occurrence_paper),
// scan.ExclusiveSum's single pass over the uint32 keys (obs_scan), the
// picked sort (obs_sort), the radix sort of keys and pairs (obs_radix_*,
// obs_pairs_*), the other papers' sorts (obs_hp, obs_hp_distinct,
// obs_hp_few, obs_notes_radix, obs_count_pairs) and the sorting networks
// (obs_net_*). A new sort is one more entry.
//
// For every key count and distribution obsbench copies the keys to GPU 0
// once and times each method with events on the default stream: 3 untimed
// warm-ups, then R timed runs (-runs, at least 15), of which the median,
// minimum and maximum are kept. The first run's result, written into
// outputs filled with a value no sort writes there (0xFF bytes, a NaN for
// floats), is checked element by element against slices.Sort (with
// slices.Compact for the sorts that drop duplicates, the prefix sums for
// the scan, a stable argsort for sorts of pairs); a wrong result ends the
// program with status 1.
//
// The baseline's rows come from bench/cub/baseline.cu (memcpy, the floor;
// cub_radix_full and cub_radix_bits, DeviceRadixSort::SortKeys over every
// bit or told the range's bits; cub_pairs_full and cub_pairs_bits, the
// same with SortPairs; thrust_sort; cub_sort_unique, the radix sort then
// DeviceSelect::Unique; cub_scan): -cub-bin runs the built program with the
// same -n, -dist, -runs and -seed and reads the CSV it prints; -cub reads a
// CSV it printed earlier. Without either only our rows are written.
//
// Into DIR (default docs/bench) it writes
//
//	bench.csv      n,dist,method,median_ms,min_ms,max_ms,runs: ours and the baseline's rows
//	sort_<N>.svg   per N, the median time of every method across the distributions
//	ratio_<N>.svg  per N, each of our methods' median over its rival's
//	table.md       per N, every method's medians per distribution, then
//	               ours / CUB for every cell, bold and marked ▲ where ours is slower
//
// and prints on standard output the ratio grid: per method of ours, its
// ratio to its rival for every distribution and N. Progress goes to
// standard error. -charts-only redraws the charts, the table and the grid
// from DIR/bench.csv, with no GPU.
//
// Exit status: 0 on success, 1 when a measurement or a check fails (or
// there is no GPU), 2 for a bad command line.
package main
