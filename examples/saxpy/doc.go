// Package saxpy is a package of kernels as a user of the library writes
// it: Kernels (in kernels.go) returns the kernel, `go generate` writes
// saxpy.cu and the typed launcher Saxpy (in saxpy_launch.go), and Axpy (in
// axpy.go) calls the launcher like any Go function. It imports nothing
// from the library but its public packages, so its files also build, and
// their test runs, in a module of their own (.ci/run does this).
package saxpy
