package gen

import (
	"bytes"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// kernelsPackage is a package whose files mix what Kernels needs with
// host code that calls the launchers.
var kernelsPackage = map[string]string{
	"k.go": `package p

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	rt "github.com/obsidian-go/obsidian/runtime"
)

// Kernels returns the package's kernels.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{scale(threads)} }

// Run launches scale.
func Run(dev rt.Device) error { return fmt.Errorf("%v", Scale(dev)) }

const (
	threads = 64 << iota
	unused
)

func scale(n int) *dsl.Kernel { var s shape; s.check(); return dsl.NewKernel(name, n) }
`,
	"shape.go": `package p

import "strings"

type shape struct{ w int }

// check is a method of a needed type.
func (s *shape) check() {}

type pipeline struct{ s shape }

func (p pipeline) launch() { Scale(nil) }

var (
	name  = strings.ToLower("SCALE")
	table = []any{Scale}
)

//go:embed nothing.txt
var embedded string

var _ = Scale
`,
	"host.go": `package p

import "github.com/obsidian-go/obsidian/runtime"

// Twice launches scale twice.
func Twice(dev runtime.Device) { Scale(dev); Scale(dev) }
`,
	"init.go": `package p

func init() { registered = true }

var registered bool
`,
	"p_launch.go": Header + "\n// Made by obsgen run.\n\npackage p\n\nfunc Scale(any) error { return nil }\n",
}

// TestKernelSources checks what the driver compiles of a package: the
// declarations Kernels needs, at their own lines and columns, and the
// init functions; not the host code, nor the launcher file; imports left
// unused become blank.
func TestKernelSources(t *testing.T) {
	files := map[string][]byte{}
	for name, src := range kernelsPackage {
		files["/pkg/"+name] = []byte(src)
	}
	got, err := KernelSources("p", files, map[string]string{"github.com/obsidian-go/obsidian/dsl": "dsl"})
	if err != nil {
		t.Fatal(err)
	}
	if src, ok := got["/pkg/p_launch.go"]; !ok || src != nil {
		t.Errorf("the launcher file is not left out: %q", src)
	}
	want := map[string]struct{ kept, gone []string }{
		"k.go": {
			kept: []string{`_ "fmt"`, `"github.com/obsidian-go/obsidian/dsl"`, `_ "github.com/obsidian-go/obsidian/runtime"`,
				"func Kernels()", "threads = 64 << iota", "unused", "func scale(n int)"},
			gone: []string{"Run", "Scale", "fmt.Errorf", `rt "`},
		},
		"shape.go": {
			kept: []string{`import "strings"`, "type shape struct", "func (s *shape) check()", `name  = strings.ToLower("SCALE")`},
			gone: []string{"pipeline", "launch", "table", "Scale", "embed", "embedded", "_ ="},
		},
		"host.go": {kept: []string{"package p", `import _ "github.com/obsidian-go/obsidian/runtime"`}, gone: []string{"Twice", "Scale"}},
		"init.go": {kept: []string{"func init() { registered = true }", "var registered bool"}},
	}
	for name, w := range want {
		directive, pruned, _ := bytes.Cut(got["/pkg/"+name], []byte("\n"))
		if string(directive) != "//line /pkg/"+name+":1:1" {
			t.Errorf("%s begins %q, not a line directive naming it", name, directive)
		}
		original := kernelsPackage[name]
		if _, err := parser.ParseFile(token.NewFileSet(), name, pruned, parser.AllErrors); err != nil {
			t.Errorf("%s does not parse: %v\n%s", name, err, pruned)
		}
		if bytes.Count(pruned, []byte("\n")) != strings.Count(original, "\n") {
			t.Errorf("%s: %d lines, want %d:\n%s", name, bytes.Count(pruned, []byte("\n")), strings.Count(original, "\n"), pruned)
		}
		for _, s := range w.kept {
			if !bytes.Contains(pruned, []byte(s)) {
				t.Errorf("%s lacks %q:\n%s", name, s, pruned)
			}
		}
		for _, s := range w.gone {
			if bytes.Contains(pruned, []byte(s)) {
				t.Errorf("%s keeps %q:\n%s", name, s, pruned)
			}
		}
		// What is kept is where it was (imports aside).
		for i, line := range strings.Split(string(pruned), "\n") {
			if trimmed := strings.TrimSpace(line); trimmed != "" && !strings.Contains(trimmed, `_ "`) && !strings.Contains(strings.Split(original, "\n")[i], line) {
				t.Errorf("%s:%d is %q, not on that line of the file: %q", name, i+1, line, strings.Split(original, "\n")[i])
			}
		}
	}
}

// FuzzKernelSources gives KernelSources any one file: it must return an
// error or, for a file that declares Kernels, a source that parses, has
// as many lines as the file and still declares Kernels.
func FuzzKernelSources(f *testing.F) {
	for _, src := range kernelsPackage {
		f.Add(src)
	}
	f.Add("package p\n\nfunc Kernels() {}\n")
	f.Add("package p\n\ntype T[P any] struct{}\n\nfunc (T[P]) m() {}\n\nvar Kernels = T[int]{}.m\n")
	f.Add("package p\n\nconst (\n\tKernels = iota\n\tb\n)\n\nvar _, x = 1, Kernels\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<14 {
			return
		}
		got, err := KernelSources("p", map[string][]byte{"a.go": []byte(src)}, nil)
		if err != nil {
			return
		}
		directive, pruned, _ := bytes.Cut(got["a.go"], []byte("\n"))
		if string(directive) != "//line a.go:1:1" {
			t.Errorf("the source begins %q, not a line directive", directive)
		}
		file, err := parser.ParseFile(token.NewFileSet(), "a.go", pruned, 0)
		if err != nil {
			t.Fatalf("the kept source does not parse: %v\n%s", err, pruned)
		}
		if bytes.Count(pruned, []byte("\n")) != strings.Count(src, "\n") {
			t.Errorf("%d lines kept of %d:\n%s", bytes.Count(pruned, []byte("\n")), strings.Count(src, "\n"), pruned)
		}
		if file.Scope.Lookup("Kernels") == nil {
			t.Errorf("Kernels is gone:\n%s", pruned)
		}
	})
}
