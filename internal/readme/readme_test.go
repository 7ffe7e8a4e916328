package readme

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/internal/golden"
)

// root is the repository's root folder, relative to this package.
const root = "../.."

// snippet is a ```go block of the README and the code it must be.
type snippet struct {
	line  int      // the README line of the block's opening fence
	end   int      // the README line of its closing fence
	file  string   // the file it comes from, relative to the root
	names []string // the declarations it is; none: the whole file
	text  string   // the block's text
}

// marker names the source of the ```go block after it:
// <!-- snippet: FILE [NAME ...] -->.
var marker = regexp.MustCompile(`^<!-- snippet: (\S+)((?: \w+)*) -->$`)

// snippets returns the ```go blocks of the README, each with the source its
// marker names; a block without a marker, or a marker without a block, is
// an error.
func snippets(readme string) ([]snippet, error) {
	var out []snippet
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(lines[i])
		if lines[i] == "```go" {
			return nil, fmt.Errorf("README.md:%d: a Go snippet without a <!-- snippet: FILE [NAME ...] --> line before it", i+1)
		}
		if m == nil {
			continue
		}
		if i+1 == len(lines) || lines[i+1] != "```go" {
			return nil, fmt.Errorf("README.md:%d: %s is not followed by a ```go block", i+1, lines[i])
		}
		end := i + 2
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("README.md:%d: the ```go block does not end", i+2)
		}
		out = append(out, snippet{line: i + 2, end: end + 1, file: m[1], names: strings.Fields(m[2]), text: strings.Join(lines[i+2:end], "\n") + "\n"})
		i = end
	}
	return out, nil
}

// source returns the code a snippet must be: for each name, the body of
// the function if it is an Example (without its braces, one tab less
// indented), else the whole declaration (without its doc comment), joined
// by blank lines; with no names, the whole file.
func source(s snippet) (string, error) {
	src, err := os.ReadFile(filepath.Join(root, s.file))
	if err != nil {
		return "", err
	}
	if len(s.names) == 0 {
		return string(src), nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, s.file, src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	var parts []string
	for _, name := range s.names {
		decl := findDecl(f, name)
		if decl == nil {
			return "", fmt.Errorf("%s declares no %s", s.file, name)
		}
		fn, isFunc := decl.(*ast.FuncDecl)
		if isFunc && strings.HasPrefix(name, "Example") {
			body := string(src[offset(fn.Body.Lbrace)+1 : offset(fn.Body.Rbrace)])
			parts = append(parts, dedent(strings.TrimPrefix(body, "\n")))
			continue
		}
		parts = append(parts, string(src[offset(decl.Pos()):offset(decl.End())])+"\n")
	}
	return strings.Join(parts, "\n"), nil
}

// findDecl returns the top-level declaration of name in f: a function, or
// the type, variable or constant declaration that declares it.
func findDecl(f *ast.File, name string) ast.Node {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == name {
				return d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == name {
					return d
				}
				if vs, ok := s.(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						if n.Name == name {
							return d
						}
					}
				}
			}
		}
	}
	return nil
}

// dedent removes one leading tab from every line of text.
func dedent(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "\n")
}

// TestSnippetsAreTestedCode checks every Go snippet of the README is the
// code its marker names, which the tests of its package compile and run
// (the Examples check their output). With -update it rewrites the
// snippets from the code instead.
func TestSnippetsAreTestedCode(t *testing.T) {
	path := filepath.Join(root, "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	all, err := snippets(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("README.md has no Go snippets")
	}
	lines := strings.Split(string(readme), "\n")
	for i := len(all) - 1; i >= 0; i-- { // from the end, as rewriting moves lines
		s := all[i]
		want, err := source(s)
		if err != nil {
			t.Errorf("README.md:%d: %v", s.line, err)
			continue
		}
		if *golden.Update {
			lines = slices.Replace(lines, s.line, s.end-1, strings.Split(strings.TrimSuffix(want, "\n"), "\n")...)
			continue
		}
		if s.text != want {
			t.Errorf("README.md:%d differs from %s %s (go test ./internal/readme -update rewrites it):\n--- README\n%s--- %s\n%s",
				s.line, s.file, strings.Join(s.names, " "), s.text, s.file, want)
		}
	}
	if *golden.Update {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSnippetMarkers checks the reading of markers and blocks, and that a
// README that drifted from its code is caught.
func TestSnippetMarkers(t *testing.T) {
	for _, c := range []struct {
		readme, want string
	}{
		{"text\n```go\nx := 1\n```\n", "README.md:2: a Go snippet without a <!-- snippet"},
		{"<!-- snippet: a.go f -->\ntext\n", "is not followed by a ```go block"},
		{"<!-- snippet: a.go f -->\n```go\nx := 1\n", "the ```go block does not end"},
	} {
		if _, err := snippets(c.readme); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one with %q", c.readme, err, c.want)
		}
	}
	all, err := snippets("<!-- snippet: internal/readme/readme_test.go dedent -->\n```go\nfunc dedent(text string) string {}\n```\n")
	if err != nil || len(all) != 1 {
		t.Fatalf("snippets: %v, %v", all, err)
	}
	want, err := source(all[0])
	if err != nil || !strings.HasPrefix(want, "func dedent(text string) string {\n\tlines :=") || want == all[0].text {
		t.Errorf("source of dedent: %q, %v", want, err)
	}
	all[0].names = []string{"ExampleNothing"}
	if _, err := source(all[0]); err == nil || !strings.Contains(err.Error(), "declares no ExampleNothing") {
		t.Errorf("a missing declaration: %v", err)
	}
}
