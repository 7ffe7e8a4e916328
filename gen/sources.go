package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
)

// KernelSources returns what the driver program compiles of package name
// instead of its Go files (path → source; a test's files are no part of
// it): every file with only the declarations that Kernels needs, so that
// the package builds for its generator whatever its other files call, the
// launchers above all, which may be missing or out of date while they are
// made. The package's own files need no build constraint for it.
//
// A declaration is needed when it is Kernels, an init function, or one
// whose name a needed declaration mentions; the methods of a needed type
// are needed; a group of constants is kept or left out whole. Declarations
// left out are blanked out byte for byte, below a line directive naming
// the file, so that every line and column that remains, and so every
// position the compiler and the DSL report, is the file's own.
// An import no needed declaration of its file uses becomes a blank import
// (imported for its initialisation only); importNames maps an import path
// to its package's name (the last element of the path when missing). The
// launcher file obsgen generated for the package maps to nil: it is left
// out.
func KernelSources(name string, files map[string][]byte, importNames map[string]string) (map[string][]byte, error) {
	if err := checkPackageName(name); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fset := token.NewFileSet()
	out := make(map[string][]byte, len(files))
	var parsed []*sourceFile
	for _, p := range paths {
		src := files[p]
		if filepath.Base(p) == LauncherFileName(name) && bytes.HasPrefix(src, []byte(Header+"\n")) {
			out[p] = nil
			continue
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, &sourceFile{path: p, src: src, ast: f, base: fset.File(f.Pos()).Base()})
	}
	decls := newDeclGraph(parsed)
	if !decls.markNeeded("Kernels") {
		return nil, fmt.Errorf("package %s declares no Kernels function", name)
	}
	for _, f := range parsed {
		// The line directive names the file for the compiler's messages and
		// the positions of the compiled code.
		out[f.path] = append([]byte("//line "+f.path+":1:1\n"), f.pruned(decls, importNames)...)
	}
	return out, nil
}

// sourceFile is one Go file of the package, parsed.
type sourceFile struct {
	path string
	src  []byte
	ast  *ast.File
	base int // the file's base in the file set: offset = pos - base
}

// decl is a unit of declaration that is kept or left out whole: a
// function or method, a type or variable spec, or a group of constants.
type decl struct {
	file     *sourceFile
	node     ast.Node          // what to blank out when left out
	doc      *ast.CommentGroup // its doc comment, blanked out with it
	names    []string          // the package-level names it declares
	receiver string            // the type a method belongs to
	root     bool              // needed whatever mentions it (init)
	needed   bool
	uses     []string // the identifiers it mentions
}

// declGraph is every declaration of the package, by the names it declares
// and by the type whose methods they are.
type declGraph struct {
	all       []*decl
	byName    map[string][]*decl
	methodsOf map[string][]*decl
}

// newDeclGraph collects the declarations of files.
func newDeclGraph(files []*sourceFile) *declGraph {
	g := &declGraph{byName: map[string][]*decl{}, methodsOf: map[string][]*decl{}}
	for _, f := range files {
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				u := &decl{file: f, node: d, doc: d.Doc}
				switch {
				case d.Recv != nil: // a method, even of a malformed receiver list: never a package-level name
					if len(d.Recv.List) == 1 {
						u.receiver = receiverType(d.Recv.List[0].Type)
					}
				case d.Name.Name == "init":
					u.root = true
				default:
					u.names = []string{d.Name.Name}
				}
				g.add(u)
			case *ast.GenDecl:
				g.addGenDecl(f, d)
			}
		}
	}
	return g
}

// addGenDecl adds the specs of a type, var or const declaration: one
// declaration per spec, but one for a whole group of constants, whose specs
// may repeat the expression of the one before (iota).
func (g *declGraph) addGenDecl(f *sourceFile, d *ast.GenDecl) {
	if d.Tok == token.IMPORT {
		return
	}
	if d.Tok == token.CONST || !d.Lparen.IsValid() {
		u := &decl{file: f, node: d, doc: d.Doc}
		for _, s := range d.Specs {
			u.names = append(u.names, specNames(s)...)
		}
		g.add(u)
		return
	}
	for _, s := range d.Specs {
		g.add(&decl{file: f, node: s, doc: specDoc(s), names: specNames(s)})
	}
}

// add records u and the identifiers it mentions.
func (g *declGraph) add(u *decl) {
	u.uses = mentions(u.node, u.uses)
	g.all = append(g.all, u)
	for _, n := range u.names {
		g.byName[n] = append(g.byName[n], u)
	}
	if u.receiver != "" {
		g.methodsOf[u.receiver] = append(g.methodsOf[u.receiver], u)
	}
}

// markNeeded marks the declarations of root, the init functions and
// everything they need, and reports whether root is declared.
func (g *declGraph) markNeeded(root string) bool {
	var work []*decl
	need := func(us []*decl) {
		for _, u := range us {
			if !u.needed {
				u.needed = true
				work = append(work, u)
			}
		}
	}
	need(g.byName[root])
	found := len(work) > 0
	for _, u := range g.all {
		if u.root {
			need([]*decl{u})
		}
	}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		for _, n := range u.uses {
			need(g.byName[n])
		}
		for _, n := range u.names {
			need(g.methodsOf[n])
		}
	}
	return found
}

// pruned returns the file's source with the declarations that are not
// needed blanked out and its unused imports made blank.
func (f *sourceFile) pruned(g *declGraph, importNames map[string]string) []byte {
	src := bytes.Clone(f.src)
	used := map[string]bool{}
	for _, u := range g.all {
		if u.file != f {
			continue
		}
		if u.needed {
			for _, n := range u.uses {
				used[n] = true
			}
			continue
		}
		start := u.node.Pos()
		if u.doc != nil {
			start = u.doc.Pos()
		}
		blank(src[int(start)-f.base : int(u.node.End())-f.base])
	}
	// Imports are rewritten last, from the end, as they change lengths.
	imports := f.ast.Imports
	for i := len(imports) - 1; i >= 0; i-- {
		spec := imports[i]
		importPath, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := importNames[importPath]
		if name == "" {
			name = path.Base(importPath)
		}
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." || used[name] {
			continue
		}
		start, end := int(spec.Pos())-f.base, int(spec.End())-f.base
		src = append(src[:start], append([]byte("_ "+spec.Path.Value), src[end:]...)...)
	}
	return src
}

// mentions appends to uses the identifiers n mentions, but not those
// selected from another value or package (x.f: f is a field, a method or
// another package's name).
func mentions(n ast.Node, uses []string) []string {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			uses = mentions(n.X, uses)
			return false
		case *ast.Ident:
			uses = append(uses, n.Name)
		}
		return true
	})
	return uses
}

// blank replaces every byte of b but line breaks with a space.
func blank(b []byte) {
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
}

// receiverType returns the name of a method's receiver type.
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// specNames returns the names a type or value spec declares, but not _,
// which no other declaration can mention.
func specNames(s ast.Spec) []string {
	var names []string
	switch s := s.(type) {
	case *ast.TypeSpec:
		names = append(names, s.Name.Name)
	case *ast.ValueSpec:
		for _, n := range s.Names {
			names = append(names, n.Name)
		}
	default:
		panic(fmt.Sprintf("gen: unexpected spec %T", s))
	}
	return slices.DeleteFunc(names, func(n string) bool { return n == "_" })
}

// specDoc returns a spec's doc comment.
func specDoc(s ast.Spec) *ast.CommentGroup {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Doc
	case *ast.ValueSpec:
		return s.Doc
	}
	return nil
}
