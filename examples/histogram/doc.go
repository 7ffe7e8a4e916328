// Package histogram counts uint32 keys in bins with atomic additions: key k
// is counted in bin k mod len(bins). Histogram, in histogram_launch.go,
// launches it on bins the caller has zeroed; `go generate` regenerates
// histogram.cu and the launcher from Kernels.
package histogram
