package eval

import (
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/ir"
)

// addThroughSharedKernel loads, adds one and stores, through shared memory:
// the typical shape of a kernel the property tests run.
func addThroughSharedKernel() *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 256)
	vb, i, j := index("vb"), index("i"), index("j")
	base := mul(vb, u32(256))
	return kernel(256, []*ir.Array{in, out}, []*ir.Array{sh}, forAll(ir.GridBlocks, vb, bin(ir.Div, &ir.Len{Array: in}, u32(256)), 200,
		forAll(ir.BlockThreads, i, u32(256), 201, st(sh, i, add(ld(in, add(base, i), 201), u32(1)), 201)),
		sync(ir.BlockLevel, 202),
		forAll(ir.BlockThreads, j, u32(256), 203, st(out, add(base, j), ld(sh, bin(ir.Xor, j, u32(1)), 203), 203)),
		sync(ir.BlockLevel, 204)))
}

func BenchmarkLaunch4096(b *testing.B) {
	k, in, out := addThroughSharedKernel(), iota32(4096), NewBuffer(ir.Uint32, 4096)
	for b.Loop() {
		if err := Launch(k, Config{Blocks: 16}, bufArgs(in, out)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProgramLaunch4096 is BenchmarkLaunch4096 with the kernel
// compiled once: what a launch costs besides its compilation.
func BenchmarkProgramLaunch4096(b *testing.B) {
	p, err := Compile(addThroughSharedKernel())
	if err != nil {
		b.Fatal(err)
	}
	in, out := iota32(4096), NewBuffer(ir.Uint32, 4096)
	for b.Loop() {
		if err := p.Launch(Config{Blocks: 16}, bufArgs(in, out)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLaunchTiming(t *testing.T) {
	k, in, out := addThroughSharedKernel(), iota32(4096), NewBuffer(ir.Uint32, 4096)
	const runs = 20
	start := time.Now()
	for range runs {
		if err := Launch(k, Config{Blocks: 16}, bufArgs(in, out)); err != nil {
			t.Fatal(err)
		}
	}
	for i, x := range u32s(out) {
		if want := uint32(i^1) + 1; x != want {
			t.Fatalf("out[%d] = %d, want %d", i, x, want)
		}
	}
	t.Logf("4096 elements, 256 threads, 16 blocks: %v per launch", time.Since(start)/runs)
}
