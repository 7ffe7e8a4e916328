// Package countsort is counting sort as a host pipeline of generated
// launchers (the FHPC'13 paper's counting sort): Count makes a histogram of
// the keys, ScanBlocks and AddTotals turn it into inclusive prefix sums
// (block scans, then the scanned block totals added back, recursively), and
// Reconstruct writes every key as often as it was counted. Sort runs the
// pipeline on any device. Its file calls the generated launchers like any
// other Go code: `go generate` rebuilds them from Kernels even when they are
// missing or out of date.
package countsort
