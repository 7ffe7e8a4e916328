// Package reverse reverses an array of any length, one block per 256
// elements: each block reads its chunk of the input into shared memory in
// memory order and writes it reversed where it belongs in the output.
// Reverse, in reverse_launch.go, launches it; `go generate` regenerates
// reverse.cu and the launcher from Kernels.
package reverse
