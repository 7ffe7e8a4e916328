package dsl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
)

// markerLineIn returns the line of file that carries "// bad: <name>".
func markerLineIn(t *testing.T, file, name string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// bad: "+name) {
			return i + 1
		}
	}
	t.Fatalf("no marker %q", name)
	return 0
}

// copyKernel is a kernel of one block-level step through shared memory, with
// the step's body given by each case.
func copyKernel(step func(k *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32])) *dsl.Kernel {
	k := dsl.NewKernel("bad", 256)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(4), func(b *dsl.Block, bid dsl.U32) { step(k, b, in, out) })
	})
	return k
}

// threadStep is copyKernel with a per-thread body.
func threadStep(body func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32])) *dsl.Kernel {
	return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
		b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { body(t, i, in, out) })
	})
}
