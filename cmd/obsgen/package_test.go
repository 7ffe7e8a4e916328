package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needGo skips t where the go command is missing: obsgen run needs it.
func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("obsgen run needs the go command:", err)
	}
}

// copyKernelSource is a Go function building a kernel that copies in to
// out, for the packages the tests write.
const copyKernelSource = `
func copyKernel(name string) *dsl.Kernel {
	k := dsl.NewKernel(name, 64)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) })
	})
	return k
}
`

// kernelsFile returns the source of a file of package pkg whose Kernels
// returns copy kernels of the names given, followed by more.
func kernelsFile(pkg string, names []string, more string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("copyKernel(%q)", n)
	}
	return fmt.Sprintf("package %s\n\nimport \"github.com/obsidian-go/obsidian/dsl\"\n\n// Kernels returns the package's kernels.\nfunc Kernels() []*dsl.Kernel { return []*dsl.Kernel{%s} }\n%s%s",
		pkg, strings.Join(quoted, ", "), copyKernelSource, more)
}

// newPackage writes files (name → source) into a new folder under
// testdata, inside the module, removed when the test ends, and returns the
// folder.
func newPackage(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := os.MkdirTemp("testdata", "pkg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goBuild builds the package in dir with the go command.
func goBuild(dir string) error {
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}
