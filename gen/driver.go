package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/dave/jennifer/jen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Package is a Go package of kernels to generate files for.
type Package struct {
	Name string // the package's name
	Path string // the package's import path
	Dir  string // the package's folder, where its launcher file goes
	// CUDADir is where the .cu files go; "" means Dir. Several packages
	// may share one: each removes only the stale files it made itself.
	CUDADir string
}

// MadeBy says how a package's files are made.
func (p Package) MadeBy() string {
	return fmt.Sprintf("obsgen run, from the Kernels() of package %s", p.Path)
}

// Main builds the kernels of kernels() and writes the package's files:
// the body of the driver program obsgen run writes. It returns the
// program's exit status: 0, or 1 after printing what went wrong (every
// mistake at the user's Go line; a name the launcher file would take that
// the package's files already have; a file in the way that the package did
// not generate; a panic of kernels or of a builder) to stderr.
func Main(kernels func() []*dsl.Kernel, p Package, stdout, stderr io.Writer) int {
	if err := p.generate(kernels, stdout); err != nil {
		fmt.Fprintf(stderr, "package %s: %v\n", p.Path, err)
		return 1
	}
	return 0
}

// generate builds the kernels, checks the names of the launcher file
// against the package's files and writes the files.
func (p Package) generate(kernels func() []*dsl.Kernel, stdout io.Writer) error {
	if p.Dir == "" {
		return errors.New("no folder to write the files into")
	}
	built, err := buildAll(kernels)
	if err != nil {
		return err
	}
	scope, err := ReadScope(p.Dir, p.Name)
	if err != nil {
		return err
	}
	files, err := PackageFiles(scope, p.MadeBy(), built)
	if err != nil {
		return err
	}
	launcherName := LauncherFileName(p.Name)
	launcher := Files{launcherName: files[launcherName]}
	delete(files, launcherName)
	cudaDir := p.CUDADir
	if cudaDir == "" {
		cudaDir = p.Dir
	}
	placed := []struct {
		files Files
		dir   string
	}{{files, cudaDir}, {launcher, p.Dir}}
	for _, pl := range placed { // nothing is written unless all can be
		if _, err := pl.files.changed(pl.dir, p.MadeBy()); err != nil {
			return err
		}
	}
	report := Report{Of: "package " + p.Path}
	defer func() { report.Print(stdout) }()
	for _, pl := range placed {
		written, err := pl.files.Write(pl.dir, p.MadeBy())
		report.Wrote = append(report.Wrote, written...)
		report.Unchanged += len(pl.files) - len(written)
		if err != nil {
			return err
		}
	}
	removed, err := files.RemoveStale(cudaDir, p.MadeBy())
	report.Removed = removed
	if err != nil || sameFolder(cudaDir, p.Dir) {
		return err
	}
	// the .cu files an earlier run wrote beside the package's Go files
	removed, err = Files{}.RemoveStale(p.Dir, p.MadeBy())
	report.Removed = append(report.Removed, removed...)
	return err
}

// sameFolder reports whether a and b name one folder, through links too.
func sameFolder(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return a == b || errA == nil && errB == nil && os.SameFile(sa, sb)
}

// buildAll builds the kernels of kernels(), reporting a panic of kernels or
// of a builder as an error with its stack.
func buildAll(kernels func() []*dsl.Kernel) (built []*ir.Kernel, err error) {
	if kernels == nil {
		return nil, errors.New("no Kernels function")
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("building the kernels panicked: %v\n%s", v, debug.Stack())
		}
	}()
	return Build(kernels())
}

// DriverFile returns the Go source of the driver program for p: a main
// package that calls Main with p's Kernels function.
func DriverFile(p Package) ([]byte, error) {
	if err := checkPackageName(p.Name); err != nil {
		return nil, err
	}
	if p.Name == "main" {
		return nil, fmt.Errorf("package %s is a command (package main), which no program can import: move its Kernels into a package of its own", p.Path)
	}
	f := jen.NewFile("main")
	f.HeaderComment(Header)
	f.ImportName(p.Path, p.Name)
	f.Commentf("Command driver writes the generated files of package %s.", p.Path)
	genPath := "github.com/obsidian-go/obsidian/gen"
	f.Func().Id("main").Params().Block(
		jen.Qual("os", "Exit").Call(jen.Qual(genPath, "Main").Call(
			jen.Qual(p.Path, "Kernels"),
			jen.Qual(genPath, "Package").Values(jen.DictFunc(func(d jen.Dict) {
				d[jen.Id("Name")] = jen.Lit(p.Name)
				d[jen.Id("Path")] = jen.Lit(p.Path)
				d[jen.Id("Dir")] = jen.Lit(p.Dir)
				if p.CUDADir != "" {
					d[jen.Id("CUDADir")] = jen.Lit(p.CUDADir)
				}
			})),
			jen.Qual("os", "Stdout"),
			jen.Qual("os", "Stderr"),
		)),
	)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
