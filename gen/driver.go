package gen

import (
	"bytes"
	"fmt"
	"io"

	"github.com/dave/jennifer/jen"
	"github.com/obsidian-go/obsidian/dsl"
)

// Package is a Go package of kernels to generate files for.
type Package struct {
	Name string // the package's name
	Path string // the package's import path
	Dir  string // where its generated files go
}

// MadeBy says how a package's files are made.
func (p Package) MadeBy() string {
	return fmt.Sprintf("obsgen run, from the Kernels() of package %s", p.Path)
}

// Main builds the kernels of kernels() and writes the package's files:
// the body of the driver program obsgen run writes. It returns the
// program's exit status: 0, or 1 after printing what went wrong (every
// mistake at the user's Go line) to stderr.
func Main(kernels func() []*dsl.Kernel, p Package, stdout, stderr io.Writer) int {
	built, err := Build(kernels())
	if err == nil {
		var files Files
		if files, err = PackageFiles(p.Name, p.MadeBy(), built); err == nil {
			err = files.write(p.Dir, stdout)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "package %s: %v\n", p.Path, err)
		return 1
	}
	return 0
}

// write writes files into dir, removes the stale ones and prints the paths
// written.
func (files Files) write(dir string, stdout io.Writer) error {
	if err := files.RemoveStale(dir); err != nil {
		return err
	}
	written, err := files.Write(dir)
	for _, path := range written {
		fmt.Fprintln(stdout, path)
	}
	return err
}

// DriverFile returns the Go source of the driver program for p: a main
// package that calls Main with p's Kernels function.
func DriverFile(p Package) ([]byte, error) {
	f := jen.NewFile("main")
	f.HeaderComment(Header)
	f.ImportName(p.Path, p.Name)
	f.Commentf("Command driver writes the generated files of package %s.", p.Path)
	genPath := "github.com/obsidian-go/obsidian/gen"
	f.Func().Id("main").Params().Block(
		jen.Qual("os", "Exit").Call(jen.Qual(genPath, "Main").Call(
			jen.Qual(p.Path, "Kernels"),
			jen.Qual(genPath, "Package").Values(jen.Dict{
				jen.Id("Name"): jen.Lit(p.Name),
				jen.Id("Path"): jen.Lit(p.Path),
				jen.Id("Dir"):  jen.Lit(p.Dir),
			}),
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
