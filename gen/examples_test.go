package gen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/examples/countsort"
	"github.com/obsidian-go/obsidian/examples/histogram"
	"github.com/obsidian-go/obsidian/examples/reduce"
	"github.com/obsidian-go/obsidian/examples/reverse"
	"github.com/obsidian-go/obsidian/examples/saxpy"
	"github.com/obsidian-go/obsidian/examples/scan"
	"github.com/obsidian-go/obsidian/examples/vecadd"
	"github.com/obsidian-go/obsidian/gen"
)

// TestExamplesUpToDate regenerates every example's files in memory, as
// `go generate ./examples/...` does, and checks the committed ones are the
// same, and that no other generated .cu file lies in the folder.
func TestExamplesUpToDate(t *testing.T) {
	for _, ex := range []struct {
		name    string
		kernels func() []*dsl.Kernel
	}{
		{"vecadd", vecadd.Kernels},
		{"reverse", reverse.Kernels},
		{"reduce", reduce.Kernels},
		{"scan", scan.Kernels},
		{"histogram", histogram.Kernels},
		{"countsort", countsort.Kernels},
		{"saxpy", saxpy.Kernels},
	} {
		p := gen.Package{Name: ex.name, Path: "github.com/obsidian-go/obsidian/examples/" + ex.name, Dir: filepath.Join("..", "examples", ex.name)}
		kernels, err := gen.Build(ex.kernels())
		if err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		scope, err := gen.ReadScope(p.Dir, p.Name)
		if err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		files, err := gen.PackageFiles(scope, p.MadeBy(), kernels)
		if err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		for name, want := range files {
			got, err := os.ReadFile(filepath.Join(p.Dir, name))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s is missing or out of date (%v): go generate ./examples/... rewrites it", ex.name, name, err)
			}
		}
		cus, _ := filepath.Glob(filepath.Join(p.Dir, "*.cu"))
		if len(cus) != len(files)-1 {
			t.Errorf("%s: %d .cu files, want %d", ex.name, len(cus), len(files)-1)
		}
	}
}
