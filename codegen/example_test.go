package codegen_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
)

// A kernel printed as CUDA C: readable, deterministic (the same kernel
// always prints the same text), with extern "C" linkage so the runtime can
// find it by name, and every store kept inside its array.
func ExampleCUDA() {
	k := dsl.NewKernel("add", 128)
	a, b := dsl.Input[float32](k, "a"), dsl.Input[float32](k, "b")
	sum := dsl.Output[float32](k, "sum")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(sum.Len(), func(t *dsl.Thread, i dsl.U32) {
			sum.Store(t, i, a.At(i).Add(b.At(i)))
		})
	})
	kernel, err := k.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	src, _, err := codegen.CUDA(kernel) // verified, simplified, shared memory laid out, printed
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(src)
	// Output:
	// // add: 128 threads per block, 0 bytes of shared memory
	// extern "C" __global__ void __launch_bounds__(128) add(const float* a, unsigned int a_len, const float* b, unsigned int b_len, float* sum, unsigned int sum_len) {
	//   for (unsigned long long gid_ = (unsigned long long)blockIdx.x * 128 + threadIdx.x; gid_ < sum_len; gid_ += (unsigned long long)gridDim.x * 128) {
	//     unsigned int gid = (unsigned int)gid_;
	//     if (gid < sum_len) sum[gid] = a[gid] + b[gid];
	//   }
	// }
}
