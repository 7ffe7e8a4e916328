// Command obsbench times the library's counting sort, occurrence sort and
// device-wide scan on a GPU beside CUB and Thrust, and draws the
// comparison.
//
// Usage:
//
//	obsbench [-n N]... [-runs R] [-seed S] [-cub FILE | -cub-bin PATH] [-o DIR]
//	obsbench -charts-only [-o DIR]
//
// For every key count N (default 2^20, 2^21, ..., 2^25) and every key
// distribution (T4 ... T24: uniform keys in [0, 2^x); sorted: 0 ... N-1 in
// order; unique: a random permutation of 0 ... N-1) it generates the very
// keys the CUB baseline of bench/cub generates (splitmix64 from the seed),
// copies them to GPU 0 once and times, with events on the default stream,
// Sorter.CountingSort (obs_counting) and Sorter.OccurrenceSort
// (obs_occurrence) told the distribution's range: [0, 2^x) for Tx, [0, N)
// for sorted and unique, and scan.ExclusiveSum's single pass (obs_scan,
// the uint32 sums of the keys, beside the baseline's cub_scan,
// cub::DeviceScan::ExclusiveSum, and memcpy, the copy of the keys). Each method runs 3 untimed warm-ups, then R timed
// runs (at least 15); the median, minimum and maximum are kept. The first
// run's result, written into an output filled with 0xFFFFFFFF, is checked
// element by element against slices.Sort (and slices.Compact for the
// occurrence sort); a wrong result ends the program with status 1.
//
// The CUB and Thrust rows come from the baseline: -cub-bin runs the built
// baseline program with the same -n, -runs and -seed and reads the CSV it
// prints; -cub reads a CSV it printed earlier. Without either only our
// rows are written.
//
// Into DIR (default docs/bench) it writes
//
//	bench.csv     n,dist,method,median_ms,min_ms,max_ms,runs: ours and the baseline's rows
//	sort_<N>.svg  per N, the median time of every method across the distributions
//	table.md      for the largest N, our medians and ours / CUB per distribution,
//	              the sorts' and the scan's (with memcpy, the floor)
//
// and prints the table on standard output; progress goes to standard
// error. -charts-only redraws the charts and the table from DIR/bench.csv,
// with no GPU.
//
// Exit status: 0 on success, 1 when a measurement or a check fails (or
// there is no GPU), 2 for a bad command line.
package main
