// Package countsort is counting sort as a host pipeline of generated
// launchers (the FHPC'13 paper's counting sort): Count makes a histogram of
// the keys, ScanBlocks and AddTotals turn it into inclusive prefix sums
// (block scans, then the scanned block totals added back, recursively), and
// Reconstruct writes every key as often as it was counted. Sort runs the
// pipeline on any device.
//
// The pipeline's file carries `//go:build !obsgen`, as every file that calls
// a package's own launchers must, so that `go generate` can rebuild the
// launchers from Kernels even when they are missing or out of date.
package countsort
