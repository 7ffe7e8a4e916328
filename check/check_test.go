package check_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

func copyKernel() *dsl.Kernel {
	k := dsl.NewKernel("copy", 64)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i).Add(dsl.N(1))) })
	})
	return k
}

// TestVerifyRunsOncePerBuild counts the verifications from Build to
// printing and loading: Build verifies, and compiling a built kernel does
// not verify it again (it ran two or three times).
func TestVerifyRunsOncePerBuild(t *testing.T) {
	before := check.Verifications()
	k, err := copyKernel().Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := codegen.CUDA(k); err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.CPU().Load(k); err != nil {
		t.Fatal(err)
	}
	if n := check.Verifications() - before; n != 1 {
		t.Errorf("Verify ran %d times from Build to loading", n)
	}
	// A kernel built as IR by hand is verified when compiled.
	k.Verified = false
	before = check.Verifications()
	if _, _, err := codegen.CUDA(k); err != nil {
		t.Fatal(err)
	}
	if n := check.Verifications() - before; n != 1 {
		t.Errorf("an unverified kernel was verified %d times by Compile", n)
	}
}

// TestFrontEndDoesNotImportThePrinter checks that the dsl and arrays
// packages depend on neither codegen nor anything that prints CUDA.
func TestFrontEndDoesNotImportThePrinter(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/obsidian-go/obsidian/dsl",
		"github.com/obsidian-go/obsidian/arrays").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/obsidian-go/obsidian/codegen" || dep == "github.com/obsidian-go/obsidian/gen" {
			t.Errorf("the front end depends on %s", dep)
		}
	}
}
