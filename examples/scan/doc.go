// Package scan computes inclusive prefix sums of blocks of 256 uint32
// values with Sklansky of sorts/kernels (the paper's figure 8: eight
// levels, each one step through shared memory), writing each block's
// total too. Scan, in scan_launch.go, launches it; `go generate`
// regenerates scan.cu and the launcher from Kernels.
package scan
