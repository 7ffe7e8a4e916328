package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Scope is what the Go files of a package declare, as far as a launcher
// file joining the package is concerned: the names it must not declare,
// import or use as predeclared identifiers.
type Scope struct {
	// Name is the package's name.
	Name string
	// Declared maps each name of the package block (the functions, types,
	// variables and constants of the package's files) to where it is
	// declared (the file's name, without its folder, and line).
	Declared map[string]token.Position
	// Imported maps the name of each import of the package's files to
	// where it is imported. A package's import name is taken to be the
	// last element of its path unless the import names it.
	Imported map[string]token.Position
}

// ReadScope reads the Go files of package name in dir: every file whose
// package clause is name, under any build constraint, test files included
// (they compile with the package), but not the launcher file when obsgen
// generated it (it is the file being replaced) nor files the go command
// ignores (names beginning with . or _). A folder that does not exist, or
// holds no file of the package, has an empty scope. A file that does not
// parse contributes what it declares before its first syntax error: the
// compiler reports the error itself.
func ReadScope(dir, name string) (Scope, error) {
	s := Scope{Name: name, Declared: map[string]token.Position{}, Imported: map[string]token.Position{}}
	if err := checkPackageName(name); err != nil {
		return s, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("reading package %s: %w", name, err)
	}
	fset := token.NewFileSet()
	for _, e := range entries { // sorted by name
		base := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(base, ".go") || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, base))
		if err != nil {
			return s, fmt.Errorf("reading package %s: %w", name, err)
		}
		if base == LauncherFileName(name) && bytes.HasPrefix(src, []byte(Header+"\n")) {
			continue
		}
		f, _ := parser.ParseFile(fset, base, src, parser.SkipObjectResolution)
		if f == nil || f.Name == nil || f.Name.Name != name {
			continue
		}
		s.add(fset, f)
	}
	return s, nil
}

// add records the names file f declares in the package block and imports.
func (s Scope) add(fset *token.FileSet, f *ast.File) {
	at := fset.Position
	declare := func(id *ast.Ident) {
		if id == nil || id.Name == "_" {
			return
		}
		if _, ok := s.Declared[id.Name]; !ok {
			s.Declared[id.Name] = at(id.Pos())
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				declare(d.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					declare(spec.Name)
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						declare(n)
					}
				case *ast.ImportSpec:
					s.addImport(spec, at)
				}
			}
		}
	}
}

// addImport records the name an import spec brings into its file.
func (s Scope) addImport(spec *ast.ImportSpec, at func(token.Pos) token.Position) {
	importPath, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		return
	}
	name := path.Base(importPath)
	if spec.Name != nil {
		name = spec.Name.Name
	}
	if name == "_" || name == "." {
		return
	}
	if _, ok := s.Imported[name]; !ok {
		s.Imported[name] = at(spec.Pos())
	}
}

// checkPackageName says what is wrong with name as the name of a Go
// package.
func checkPackageName(name string) error {
	if !token.IsIdentifier(name) || name == "_" {
		return fmt.Errorf("package name %q is not a Go identifier (nor may it be _)", name)
	}
	return nil
}
