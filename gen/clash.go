package gen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strconv"
)

// NameClashError reports a name the launcher file would take that is
// taken already: by another name of the file itself, by the package's
// Kernels function, or by a declaration or import of the package's own
// files. Either would make the package fail to compile, or make a
// launcher call the package's function where it means Go's builtin.
type NameClashError struct {
	Package string // the package's name
	Name    string // the name both want
	Wanted  string // what the launcher file wants it for, e.g. "the launcher of kernel scan"
	Holder  string // what has it already, e.g. "declared by the package at scan.go:10"
	Fix     string // how to make the clash go away
}

func (e *NameClashError) Error() string {
	return fmt.Sprintf("package %s: %s would be %s, but it is %s: %s", e.Package, e.Name, e.Wanted, e.Holder, e.Fix)
}

// kernelsFunc is the package's function the launchers call.
const kernelsFunc = "Kernels"

// fileNames records the names a launcher file declares in the package
// block, each with what it is for, so that two uses of one name are an
// error naming both.
type fileNames struct {
	pkg  string
	uses map[string]string // name → what it is for
	fix  map[string]string // name → how to rename it
}

func newFileNames(pkg string) *fileNames {
	return &fileNames{
		pkg:  pkg,
		uses: map[string]string{kernelsFunc: "the package's Kernels function, which the launchers call"},
		fix:  map[string]string{},
	}
}

// declare records name, used for use; fix says how to free the name when
// it is taken.
func (n *fileNames) declare(name, use, fix string) error {
	if holder, ok := n.uses[name]; ok {
		return &NameClashError{Package: n.pkg, Name: name, Wanted: use, Holder: holder, Fix: fix}
	}
	n.uses[name], n.fix[name] = use, fix
	return nil
}

// checkAgainst checks that the launcher file src neither declares a name
// that the package's own files declare or import, nor imports a name the
// package declares, nor uses a predeclared identifier the package
// declares (the launcher would then call the package's function). The
// names are those of the rendered file, type-checked on its own, so that
// nothing the file introduces is missed.
func (n *fileNames) checkAgainst(s Scope, src []byte) error {
	declared, imported, predeclared, err := namesOf(src)
	if err != nil {
		return fmt.Errorf("reading back the launcher file of package %s: %w", s.Name, err)
	}
	for _, name := range declared {
		use, fix := n.uses[name], n.fix[name]+", or "
		if use == "" { // a name the generated code declares beside the launchers
			use, fix = "declared by the launcher file", ""
		}
		if where, ok := s.Declared[name]; ok {
			return &NameClashError{Package: s.Name, Name: name, Wanted: use, Holder: "declared by the package at " + where.String(),
				Fix: fix + "rename the package's " + name}
		}
		if where, ok := s.Imported[name]; ok {
			return &NameClashError{Package: s.Name, Name: name, Wanted: use, Holder: "the name of an import at " + where.String(),
				Fix: fix + "give that import another name"}
		}
	}
	for _, name := range imported {
		if where, ok := s.Declared[name]; ok {
			return &NameClashError{Package: s.Name, Name: name, Wanted: "an import of the launcher file", Holder: "declared by the package at " + where.String(),
				Fix: "rename the package's " + name + " (names beginning with obsgen are kept for the launcher file)"}
		}
	}
	for _, name := range predeclared {
		if where, ok := s.Declared[name]; ok {
			return &NameClashError{Package: s.Name, Name: name, Wanted: "Go's predeclared " + name + ", which the launchers use", Holder: "declared by the package at " + where.String(),
				Fix: "rename the package's " + name}
		}
	}
	return nil
}

// namesOf type-checks the Go file src on its own (its imports as empty
// packages) and returns, sorted, the names it declares in the package
// block, the names of its imports, and the predeclared identifiers it
// uses.
func namesOf(src []byte) (declared, imported, predeclared []string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "launch.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil, err
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check(f.Name.Name, fset, []*ast.File{f}, info)
	declared = pkg.Scope().Names()
	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, nil, nil, err
		}
		name := path.Base(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		imported = append(imported, name)
	}
	seen := map[string]bool{}
	for id, obj := range info.Uses {
		if obj.Parent() == types.Universe && !seen[id.Name] {
			seen[id.Name] = true
			predeclared = append(predeclared, id.Name)
		}
	}
	sort.Strings(imported)
	sort.Strings(predeclared)
	return declared, imported, predeclared, nil
}

// emptyImporter imports every package as an empty one: enough to resolve
// a file's own names.
type emptyImporter struct{}

func (emptyImporter) Import(p string) (*types.Package, error) {
	pkg := types.NewPackage(p, path.Base(p))
	pkg.MarkComplete()
	return pkg, nil
}
