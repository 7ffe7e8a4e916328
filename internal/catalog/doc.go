// Package catalog lists the kernels the library ships — the paper's scan,
// histogram, occurs and reconstruct from package sorts, and the thesis'
// kernels from examples/thesis — and renders each as the .cu file that
// obsgen emits and testdata/golden holds.
package catalog
