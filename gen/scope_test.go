package gen

import (
	"bytes"
	"errors"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
)

// writeFile writes content to dir/name.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadScope(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.go", "package p\n\nimport (\n\tr \"github.com/obsidian-go/obsidian/runtime\"\n\t\"strings\"\n)\n\nfunc Kernels() {}\nfunc (T) Method() {}\nfunc init() {}\ntype T int\nvar x, _ = r.CPU, strings.Cut\n")
	writeFile(t, dir, "a_test.go", "package p\n\nconst launch = 1\n")
	writeFile(t, dir, "ext_test.go", "package p_test\n\nvar External = 1\n")
	writeFile(t, dir, "_ignored.go", "package p\n\nvar Ignored = 1\n")
	writeFile(t, dir, "broken.go", "package p\n\nvar Before = 1\nfunc (\n")
	writeFile(t, dir, "p_launch.go", Header+"\n\npackage p\n\nvar Generated = 1\n")
	if err := os.Mkdir(filepath.Join(dir, "folder.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := ReadScope(dir, "p")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Kernels", "T", "x", "launch", "Before"} {
		if _, ok := s.Declared[name]; !ok {
			t.Errorf("%s is not in the scope: %v", name, s.Declared)
		}
	}
	for _, name := range []string{"Method", "init", "_", "External", "Ignored", "Generated"} {
		if _, ok := s.Declared[name]; ok {
			t.Errorf("%s is in the scope", name)
		}
	}
	if pos := s.Declared["launch"]; pos.Filename != "a_test.go" || pos.Line != 3 {
		t.Errorf("launch declared at %v, want a_test.go:3", pos)
	}
	if _, ok := s.Imported["r"]; !ok || len(s.Imported) != 2 {
		t.Errorf("imports %v, want r and strings", s.Imported)
	}
	if s, err := ReadScope(filepath.Join(dir, "missing"), "p"); err != nil || len(s.Declared) != 0 {
		t.Errorf("a missing folder: %v, %v", s, err)
	}
	if _, err := ReadScope(filepath.Join(dir, "a.go"), "p"); err == nil {
		t.Error("a file read as a folder")
	}
	if _, err := ReadScope(dir, "not-a-name"); err == nil {
		t.Error("a package name that is no identifier accepted")
	}
}

// TestLauncherFileNameClashes checks that every name the launcher file
// would take and that is taken already is an error naming both holders
// and the fix.
func TestLauncherFileNameClashes(t *testing.T) {
	for _, c := range []struct {
		name    string
		kernels []string
		scope   Scope
		want    []string
	}{
		{"kernel called kernels", []string{"kernels"}, Scope{Name: "p"},
			[]string{"Kernels would be the launcher of kernel kernels", "the package's Kernels function", "rename kernel kernels"}},
		{"kernel called Kernels", []string{"Kernels"}, Scope{Name: "p"},
			[]string{"Kernels would be the launcher of kernel Kernels"}},
		{"helper names of two kernels", []string{"a", "aCUDA"}, Scope{Name: "p"},
			[]string{"obsgenACUDA would be the loader of kernel aCUDA", "the CUDA text of kernel a"}},
		{"launcher declared by the package", []string{"scale"}, scopeOf("Scale"),
			[]string{"Scale would be the launcher of kernel scale", "declared by the package at k.go:3", "rename kernel scale, or rename the package's Scale"}},
		{"helper declared by the package", []string{"scale"}, scopeOf("obsgenScaleCUDA"),
			[]string{"obsgenScaleCUDA would be the CUDA text of kernel scale", "k.go:3"}},
		{"launcher imported by a file", []string{"scale"}, Scope{Name: "p", Imported: map[string]token.Position{"Scale": {Filename: "k.go", Line: 5}}},
			[]string{"Scale would be the launcher of kernel scale", "an import at k.go:5", "give that import another name"}},
		{"predeclared max", []string{"scale"}, scopeOf("max"),
			[]string{"max would be Go's predeclared max", "rename the package's max"}},
		{"predeclared error", []string{"scale"}, scopeOf("error"),
			[]string{"error would be Go's predeclared error"}},
		{"import and its fallback name", []string{"scale"}, scopeOf("runtime", "obsgenruntime"),
			[]string{"obsgenruntime would be an import of the launcher file", "names beginning with obsgen are kept"}},
	} {
		var printed []Printed
		for _, k := range c.kernels {
			printed = append(printed, mustPrint(t, copyKernel(k)))
		}
		_, err := LauncherFile(c.scope, "a test", printed)
		var clash *NameClashError
		if !errors.As(err, &clash) {
			t.Errorf("%s: got %v, want a *NameClashError", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error lacks %q:\n%v", c.name, w, err)
			}
		}
	}
}

// scopeOf returns the scope of package p declaring names, each at k.go:3.
func scopeOf(names ...string) Scope {
	s := Scope{Name: "p", Declared: map[string]token.Position{}}
	for _, n := range names {
		s.Declared[n] = token.Position{Filename: "k.go", Line: 3}
	}
	return s
}

// mustPrint builds and prints k.
func mustPrint(t *testing.T, k *dsl.Kernel) Printed {
	t.Helper()
	built, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Print(built)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLauncherFileRenamesImports checks that the imports of a launcher
// file whose package declares their names are renamed, and that the file
// is otherwise the same.
func TestLauncherFileRenamesImports(t *testing.T) {
	printed := []Printed{mustPrint(t, copyKernel("scale"))}
	plain, err := LauncherFile(Scope{Name: "p"}, "a test", printed)
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := LauncherFile(scopeOf("launch", "runtime", "ir", "Kernels"), "a test", printed)
	if err != nil {
		t.Fatal(err)
	}
	_, imported, _, err := namesOf(renamed)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(imported, " ") != "obsgenir obsgenlaunch obsgenruntime" {
		t.Errorf("imports %v, want obsgenir obsgenlaunch obsgenruntime", imported)
	}
	for _, pkg := range []string{"launch", "runtime", "ir"} {
		plain = bytes.ReplaceAll(plain, []byte(pkg+"."), []byte("obsgen"+pkg+"."))
		plain = bytes.ReplaceAll(plain, []byte("\t"+pkg+" \""), []byte("\tobsgen"+pkg+" \""))
	}
	if !bytes.Equal(bytes.ReplaceAll(plain, []byte(" "), nil), bytes.ReplaceAll(renamed, []byte(" "), nil)) {
		t.Errorf("the renamed file differs in more than its import names:\n%s", renamed)
	}
	again, err := LauncherFile(scopeOf("launch", "runtime", "ir", "Kernels"), "a test", printed)
	if err != nil || !bytes.Equal(again, renamed) {
		t.Errorf("a second rendering differs (%v)", err)
	}
}

// TestLauncherParametersAvoidImports checks a parameter named after an
// import the launcher uses is renamed.
func TestLauncherParametersAvoidImports(t *testing.T) {
	k := dsl.NewKernel("scale", 64)
	in := dsl.Input[float32](k, "math")
	out := dsl.Output[float32](k, "launch")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) })
	})
	src, err := LauncherFile(Scope{Name: "p"}, "a test", []Printed{mustPrint(t, k)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "mathArg *runtime.Buffer[float32], launchArg *runtime.Buffer[float32]") {
		t.Errorf("parameters not renamed:\n%s", src)
	}
}

// TestLauncherFileKernelsNamedAfterKeywords checks kernels called after
// Go keywords get launchers.
func TestLauncherFileKernelsNamedAfterKeywords(t *testing.T) {
	var printed []Printed
	for _, k := range []string{"func", "go", "range"} {
		printed = append(printed, mustPrint(t, copyKernel(k)))
	}
	src, err := LauncherFile(Scope{Name: "p"}, "a test", printed)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"func Func(dev", "func Go(dev", "func Range(dev"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("launcher file lacks %q", want)
		}
	}
}
