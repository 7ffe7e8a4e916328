package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/obsidian-go/obsidian/gen"
)

const runSynopsis = `run [-o DIR] [PKGDIR]

Generates the files of the Go package in PKGDIR (default ".") whose
Kernels() function returns its kernels: <package>_launch.go in PKGDIR, a
typed launcher per kernel, and DIR/<kernel>.cu for each kernel (DIR
defaults to PKGDIR; several packages may share one: each removes only the
stale .cu files it made). obsgen writes a driver program that imports the
package into a temporary folder of its module, runs it with "go run" and
removes it, then checks that the package compiles with its new files.
A kernel that fails to build is reported at the Go line that built it; a
name the launchers would take that the package has already (a kernel
called kernels, a function called launch) is reported with the fix.
Meant for a go:generate line in the package:

  //go:generate go run github.com/obsidian-go/obsidian/cmd/obsgen run .`

func runPackage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", runSynopsis)
	out := fs.String("o", "", "folder to write the .cu files to (default: the package's folder)")
	if err := parse(fs, args, stdout, stderr); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError(fs, stderr, "one package folder at most, got %v", fs.Args())
	}
	pkgDir := "."
	if fs.NArg() == 1 {
		pkgDir = fs.Arg(0)
	}
	if strings.Contains(pkgDir, "...") {
		return usageError(fs, stderr, "%s is a pattern: name one package folder", pkgDir)
	}
	pkg, module, err := describe(pkgDir)
	if err != nil {
		return err
	}
	if *out != "" {
		if pkg.CUDADir, err = filepath.Abs(*out); err != nil {
			return err
		}
	}
	if err := checkKernelsFunc(pkg); err != nil {
		return err
	}
	if err := runDriver(pkg, module, stdout, stderr); err != nil {
		return err
	}
	return checkCompiles(pkg)
}

// describe returns the package in dir and the root folder of its module,
// as the go command sees them.
func describe(dir string) (gen.Package, string, error) {
	cmd := exec.Command("go", "list", "-json=Name,ImportPath,Dir,Module", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	listed, err := cmd.Output()
	if err != nil {
		return gen.Package{}, "", fmt.Errorf("%s: no Go package there: %v\n%s", dir, err, stderr.Bytes())
	}
	var p struct {
		Name, ImportPath, Dir string
		Module                *struct{ Dir string }
	}
	if err := json.Unmarshal(listed, &p); err != nil {
		return gen.Package{}, "", fmt.Errorf("%s: reading go list's answer: %v", dir, err)
	}
	if p.Module == nil {
		return gen.Package{}, "", fmt.Errorf("%s: the package is in no module", dir)
	}
	return gen.Package{Name: p.Name, Path: p.ImportPath, Dir: p.Dir}, p.Module.Dir, nil
}

// checkKernelsFunc checks that the package declares Kernels outside its
// test files, which the driver and the launchers call.
func checkKernelsFunc(pkg gen.Package) error {
	scope, err := gen.ReadScope(pkg.Dir, pkg.Name)
	if err != nil {
		return err
	}
	if where, ok := scope.Declared["Kernels"]; !ok || strings.HasSuffix(where.Filename, "_test.go") {
		return fmt.Errorf("package %s (%s) declares no Kernels function outside its tests: obsgen run generates the files of a package that defines func Kernels() []*dsl.Kernel", pkg.Path, pkg.Dir)
	}
	return nil
}

// runDriver writes the driver program of pkg into a temporary folder of
// module, runs it and removes it.
func runDriver(pkg gen.Package, module string, stdout, stderr io.Writer) error {
	src, err := gen.DriverFile(pkg)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(module, ".obsgen-driver-")
	if err != nil {
		return fmt.Errorf("writing the driver program into the module's folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	main := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(main, src, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("go", "run", "-tags", gen.BuildTag, main)
	cmd.Dir = module
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("generating the files of package %s (%s) failed: %v", pkg.Path, pkg.Dir, err)
	}
	return nil
}

// checkCompiles builds the package with its new launcher file.
func checkCompiles(pkg gen.Package) error {
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Dir = pkg.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("the files of package %s were written, but it does not compile with them (%v):\n%s", pkg.Path, err, bytes.TrimSpace(out))
	}
	return nil
}
