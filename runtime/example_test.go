package runtime_test

import (
	"fmt"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// reverseKernel returns a kernel that writes its input to its output in
// reverse order.
func reverseKernel() *dsl.Kernel {
	k := dsl.NewKernel("reverse", 256) // 256 threads per block
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		rev := arrays.Reverse(arrays.FromArray(in))           // rev.At(i) is in[len(in)-1-i]: an index function, nothing is copied
		arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](rev)) // one thread per element, as many blocks as that takes
	})
	return k
}

// reverse returns xs reversed, computed on dev.
func reverse(dev runtime.Device, xs []uint32) ([]uint32, error) {
	kernel, err := reverseKernel().Build() // every mistake at once, each at its line of your Go code
	if err != nil {
		return nil, err
	}
	fn, err := dev.Load(kernel) // on a GPU: printed as CUDA, compiled by NVRTC, cached
	if err != nil {
		return nil, err
	}
	in, err := runtime.FromSlice(dev, xs)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](dev, len(xs))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	if err := dev.Launch(fn, runtime.LaunchConfig{}, in, out); err != nil { // arguments checked against the kernel's parameters
		return nil, err
	}
	return out.ToSlice()
}

// A kernel written with the DSL, run on the CPU evaluator, which checks
// every launch for data races and out-of-bounds accesses; on a GPU
// (runtime.Open) the host code is the same.
func Example() {
	dev := runtime.CPU() // or runtime.Open(0): GPU 0
	got, err := reverse(dev, []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	fmt.Println(got, err)
	// Output: [10 9 8 7 6 5 4 3 2 1] <nil>
}

// readmeLengths are the lengths the README's reverse example must reverse
// exactly: empty, one, short, around a block of 256, and many blocks.
var readmeLengths = []int{0, 1, 10, 255, 256, 257, 300, 100_000}

// checkReverse checks reverse on dev gives the exact reverse of random
// data of every length of readmeLengths.
func checkReverse(t *testing.T, dev runtime.Device) {
	r := testRand(t)
	for _, n := range readmeLengths {
		xs := make([]uint32, n)
		for i := range xs {
			xs[i] = r.Uint32()
		}
		got, err := reverse(dev, xs)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(got) != n {
			t.Fatalf("n=%d: %d elements back", n, len(got))
		}
		for i := range xs {
			if got[i] != xs[n-1-i] {
				t.Fatalf("n=%d: element %d is %d, want %d (element %d of the input)", n, i, got[i], xs[n-1-i], n-1-i)
			}
		}
	}
}

// TestReverseExampleEveryLength runs the README's reverse example on the
// CPU for lengths that are and are not multiples of the block size.
func TestReverseExampleEveryLength(t *testing.T) { checkReverse(t, runtime.CPU()) }

// TestReverseExampleEveryLengthGPU is TestReverseExampleEveryLength on GPU
// 0, skipped where there is none.
func TestReverseExampleEveryLengthGPU(t *testing.T) { checkReverse(t, gpuForTest(t)) }
