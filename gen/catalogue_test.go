package gen

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// runMain runs Main and returns its output to stderr as an error when its
// exit status is not 0.
func runMain(kernels func() []*dsl.Kernel, p Package) error {
	var stdout, stderr bytes.Buffer
	if code := Main(kernels, p, &stdout, &stderr); code != 0 {
		return fmt.Errorf("exit status %d: %s", code, stderr.String())
	}
	return nil
}

// TestBadInputCatalogue gives gen's API bad input, each row under a
// deadline and with panics recovered, and checks each error says what was
// wrong.
func TestBadInputCatalogue(t *testing.T) {
	dir := t.TempDir()
	aFile := filepath.Join(dir, "file")
	writeFile(t, dir, "file", "not a folder")
	writeFile(t, dir, "hand.cu", "// a person's CUDA\n")
	good := Package{Name: "p", Path: "example.com/p", Dir: t.TempDir()}
	writeFile(t, good.Dir, "k.go", "package p\n\nfunc Kernels() {}\nfunc launch() {}\nfunc max() {}\n")
	one := func(names ...string) func() []*dsl.Kernel {
		return func() []*dsl.Kernel {
			var ks []*dsl.Kernel
			for _, n := range names {
				ks = append(ks, copyKernel(n))
			}
			return ks
		}
	}
	handLauncher := Package{Name: "p", Path: "example.com/p", Dir: t.TempDir()}
	writeFile(t, handLauncher.Dir, "k.go", "package p\n\nfunc Kernels() {}\n")
	writeFile(t, handLauncher.Dir, "p_launch.go", "package p\n\n// Launch by hand.\n")
	noParam := mustPrint(t, copyKernel("broken"))
	noParam.Kernel.Params = append(noParam.Kernel.Params, ir.Param{})
	var clash *NameClashError
	for _, c := range []struct {
		name string
		run  func() error
		as   any // a pointer to an error type the error must be, or nil
		want string
	}{
		{"no kernels", func() error { _, err := Build(nil); return err }, nil, "no kernels"},
		{"nil kernel", func() error { _, err := Build([]*dsl.Kernel{nil}); return err }, nil, "kernel 0 of the list is nil"},
		{"two kernels of one name", func() error { _, err := Build(one("a", "a")()); return err }, nil, "a second kernel called a"},
		{"kernel without body", func() error { _, err := Build([]*dsl.Kernel{dsl.NewKernel("k", 32)}); return err }, nil, "kernel k has no Body"},
		{"kernel name no identifier", func() error { _, err := Build(one("a-b")()); return err }, nil, `name "a-b" is not a C identifier`},
		{"kernel name a C++ keyword", func() error { _, err := Build(one("int")()); return err }, nil, `name "int" is a C++ keyword`},
		{"print nil", func() error { _, err := Print(nil); return err }, nil, "no kernel"},
		{"CUDA file of nil", func() error { _, err := CUDAFiles([]Printed{{}}, "x"); return err }, nil, "kernel 0 of the list is nil"},
		{"package name no identifier", func() error { _, err := LauncherFile(Scope{Name: "a-b"}, "x", nil); return err }, nil, `package name "a-b" is not a Go identifier`},
		{"package name blank", func() error { _, err := LauncherFile(Scope{Name: "_"}, "x", nil); return err }, nil, `package name "_"`},
		{"package name a keyword", func() error { _, err := LauncherFile(Scope{Name: "func"}, "x", nil); return err }, nil, `package name "func"`},
		{"launcher of nil", func() error { _, err := LauncherFile(Scope{Name: "p"}, "x", []Printed{{}}); return err }, nil, "kernel 0 of the list is nil"},
		{"launcher of an unbuilt name", func() error {
			p := mustPrint(t, copyKernel("k"))
			p.Kernel.Name = "a b"
			_, err := LauncherFile(Scope{Name: "p"}, "x", []Printed{p})
			return err
		}, nil, `kernel "a b": its name is not an identifier`},
		{"launcher of a parameter of nothing", func() error { _, err := LauncherFile(Scope{Name: "p"}, "x", []Printed{noParam}); return err }, nil, "parameter 2 is not one array or one scalar"},
		{"kernel called kernels", func() error {
			_, err := LauncherFile(Scope{Name: "p"}, "x", []Printed{mustPrint(t, copyKernel("kernels"))})
			return err
		}, &clash, "rename kernel kernels"},
		{"two launchers of one name", func() error {
			ks, err := Build(one("copy_all", "copyAll")())
			if err != nil {
				return err
			}
			_, err = PackageFiles(Scope{Name: "p"}, "x", ks)
			return err
		}, &clash, "CopyAll would be the launcher of kernel copyAll"},
		{"scope of a bad name", func() error { _, err := ReadScope(dir, "1p"); return err }, nil, `package name "1p"`},
		{"driver of package main", func() error { _, err := DriverFile(Package{Name: "main", Path: "example.com/cmd"}); return err }, nil, "package example.com/cmd is a command"},
		{"driver of a bad name", func() error { _, err := DriverFile(Package{Name: "a.b"}); return err }, nil, `package name "a.b"`},
		{"write outside the folder", func() error { _, err := Files{"../x.cu": nil}.Write(dir, ""); return err }, nil, `"../x.cu" is not a plain file name`},
		{"write into a file", func() error { _, err := Files{"x.cu": nil}.Write(aFile, ""); return err }, nil, "not a directory"},
		{"write over a person's file", func() error { _, err := Files{"hand.cu": nil}.Write(dir, ""); return err }, nil, "hand.cu was not generated by obsgen"},
		{"main without Kernels", func() error { return runMain(nil, good) }, nil, "no Kernels function"},
		{"main with empty Kernels", func() error { return runMain(one(), good) }, nil, "no kernels"},
		{"main with panicking Kernels", func() error { return runMain(func() []*dsl.Kernel { panic("boom") }, good) }, nil, "building the kernels panicked: boom"},
		{"main without folder", func() error { return runMain(one("a"), Package{Name: "p"}) }, nil, "no folder to write the files into"},
		{"main into a file", func() error { return runMain(one("a"), Package{Name: "p", Dir: aFile}) }, nil, "not a directory"},
		{"main with a predeclared name taken", func() error { return runMain(one("a"), good) }, nil, "max would be Go's predeclared max"},
		{"main over a person's launcher file", func() error { return runMain(one("a"), handLauncher) }, nil, "p_launch.go was not generated by obsgen"},
		{"main with a kernel called kernels", func() error { return runMain(one("kernels"), good) }, nil, "rename kernel kernels"},
		{"sources without Kernels", func() error { return kernelSources("p", "package p\n\nfunc kernels() {}\n") }, nil, "package p declares no Kernels function"},
		{"sources with Kernels a method", func() error { return kernelSources("p", "package p\n\ntype T int\n\nfunc (T) Kernels() {}\n") }, nil, "package p declares no Kernels function"},
		{"sources that do not parse", func() error { return kernelSources("p", "package p\n\nfunc Kernels( {}\n") }, nil, "a.go:3:15: expected ')'"},
		{"sources of a bad package name", func() error { return kernelSources("p-q", "package p\n") }, nil, `package name "p-q" is not a Go identifier`},
	} {
		err := withDeadline(t, c.name, 30*time.Second, c.run)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
			continue
		}
		if c.as != nil && !errors.As(err, c.as) {
			t.Errorf("%s: %v is not a %T", c.name, err, c.as)
		}
	}
}

// kernelSources returns KernelSources' error for package name of one file
// a.go holding src.
func kernelSources(name, src string) error {
	_, err := KernelSources(name, map[string][]byte{"a.go": []byte(src)}, nil)
	return err
}

// withDeadline runs f, failing the test when it panics or takes longer
// than d.
func withDeadline(t *testing.T, name string, d time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- fmt.Errorf("panic: %v\n%s", v, debug.Stack())
			}
		}()
		done <- f()
	}()
	select {
	case err := <-done:
		if err != nil && strings.HasPrefix(err.Error(), "panic: ") {
			t.Errorf("%s panicked: %v", name, err)
		}
		return err
	case <-time.After(d):
		t.Errorf("%s did not return within %v", name, d)
		return nil
	}
}
