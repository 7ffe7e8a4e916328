package kernels_test

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestPapersKernelsBuild builds the papers' sorts' kernels and prints
// them as CUDA, and checks that the notes' radix sort's local sort pads
// its shared memory as the notes do (a slot every 32 elements).
func TestPapersKernelsBuild(t *testing.T) {
	for _, k := range []*dsl.Kernel{kernels.HPSumsHistogramKernel(), kernels.HPDistinctKernel(), kernels.HPBinarizeKernel(),
		kernels.HPCompressKernel(), kernels.HPExpandKernel(), kernels.CountPairsScatterKernel(),
		kernels.NotesRadixLocalKernel(), kernels.NotesRadixScatterKernel()} {
		built, err := k.Build()
		if err != nil {
			t.Errorf("%s: %v", k.Name(), err)
			continue
		}
		cu, _, err := codegen.CUDA(built)
		if err != nil {
			t.Errorf("%s: %v", k.Name(), err)
			continue
		}
		if !strings.Contains(cu, "__global__ void") {
			t.Errorf("%s: no kernel in its CUDA text", k.Name())
		}
		if built.Name == "notesRadixLocal" && !strings.Contains(cu, ">> 5u") {
			t.Errorf("%s: no bank-conflict padding (i + (i >> 5)) in its CUDA text:\n%s", k.Name(), cu)
		}
	}
}
