package catalog

import (
	"path/filepath"
	"testing"

	"github.com/obsidian-go/obsidian/internal/golden"
)

// goldenDir is the repository's folder of golden .cu files.
const goldenDir = "../../testdata/golden"

// TestGolden checks every catalogued kernel prints exactly as its golden
// file (go test ./... -update rewrites them), and that no golden file is
// left without a kernel.
func TestGolden(t *testing.T) {
	want := map[string]bool{}
	for _, e := range Entries() {
		want[e.Name+".cu"] = true
		k, err := e.Kernel()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		got, err := CUDAFile(k)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		golden.Check(t, filepath.Join(goldenDir, e.Name+".cu"), got)
	}
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.cu"))
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s has no kernel in the catalogue", f)
		}
	}
}

// TestDeterministic builds every kernel twice and checks the two printouts
// are byte-identical.
func TestDeterministic(t *testing.T) {
	for _, e := range Entries() {
		var texts [2]string
		for i := range texts {
			k, err := e.Kernel()
			if err != nil {
				t.Fatal(err)
			}
			if texts[i], err = CUDAFile(k); err != nil {
				t.Fatal(err)
			}
		}
		if texts[0] != texts[1] {
			t.Errorf("%s prints differently on a second build", e.Name)
		}
	}
}
