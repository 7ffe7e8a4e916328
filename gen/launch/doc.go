// Package launch is what the launchers that obsgen generates call: a
// generated kernel, loaded on each device it launches on (from its
// embedded CUDA text on a GPU, from the package's Kernels on any other
// device) and kept in a cache that lets closed devices go, and the
// IR's operators with the IR's semantics, for computing a launch's number
// of blocks on the host.
//
// Code other than generated launchers has no need of it.
package launch
