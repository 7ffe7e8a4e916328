// Package launch is what the launchers that obsgen generates call: a
// generated kernel, loaded at most once per device (from its embedded CUDA
// text on a GPU, from the package's Kernels on any other device), and the
// IR's operators with the IR's semantics, for computing a launch's number
// of blocks on the host.
//
// Code other than generated launchers has no need of it.
package launch
