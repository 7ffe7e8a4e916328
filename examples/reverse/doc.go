// Package reverse is the thesis' rev over blocks of 256: every 256-element
// chunk of the input is read into shared memory and written back reversed
// (a partial last chunk is padded with zeros before it is reversed, and
// nothing is written past the output's end). Reverse, in reverse_launch.go,
// launches it; `go generate` regenerates reverse.cu and the launcher from
// Kernels.
package reverse
