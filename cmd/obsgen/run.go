package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/obsidian-go/obsidian/gen"
)

const runSynopsis = `run [-o DIR] [PKGDIR]

Generates the files of the Go package in PKGDIR (default ".") whose
Kernels() function returns its kernels: DIR/<kernel>.cu for each kernel and
DIR/<package>_launch.go, a typed launcher per kernel (DIR defaults to
PKGDIR). obsgen writes a driver program that imports the package into a
temporary folder of its module, runs it with "go run" and removes it.
A kernel that fails to build is reported at the Go line that built it.
Meant for a go:generate line in the package:

  //go:generate go run github.com/obsidian-go/obsidian/cmd/obsgen run .`

func runPackage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", runSynopsis)
	out := fs.String("o", "", "folder to write the files to (default: the package's folder)")
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
	pkg, module, err := describe(pkgDir)
	if err != nil {
		return err
	}
	if *out != "" {
		if pkg.Dir, err = filepath.Abs(*out); err != nil {
			return err
		}
	}
	return runDriver(pkg, module, stdout, stderr)
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

// runDriver writes the driver program of pkg into a temporary folder of
// module, runs it and removes it.
func runDriver(pkg gen.Package, module string, stdout, stderr io.Writer) error {
	src, err := gen.DriverFile(pkg)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(module, ".obsgen-driver-")
	if err != nil {
		return err
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
