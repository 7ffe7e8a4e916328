// Package vecadd is the smallest kernel package: the element-wise sum of
// two float32 vectors, with its generated CUDA file (vecadd.cu) and typed
// launcher (Vecadd, in vecadd_launch.go).
//
// Kernels returns the package's kernels; `go generate` regenerates the
// generated files from them (see gen.go and package gen):
//
//	dev := runtime.CPU() // or runtime.Open(0)
//	a, _ := runtime.FromSlice(dev, []float32{1, 2, 3})
//	b, _ := runtime.FromSlice(dev, []float32{10, 20, 30})
//	sum, _ := runtime.Alloc[float32](dev, 3)
//	err := vecadd.Vecadd(dev, runtime.LaunchConfig{}, a, b, sum)
package vecadd
