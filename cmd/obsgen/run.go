package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/obsidian-go/obsidian/gen"
)

const runSynopsis = `run [-o DIR] [PKGDIR]

Generates the files of the Go package in PKGDIR (default ".") whose
Kernels() function returns its kernels: <package>_launch.go in PKGDIR, a
typed launcher per kernel, and DIR/<kernel>.cu for each kernel (DIR
defaults to PKGDIR; several packages may share one: each removes only the
stale .cu files it made). obsgen writes a driver program that imports the
package into a temporary folder of its module, runs it with "go run" and
removes it, then checks that the package compiles with its new files.
The driver compiles only what Kernels needs of the package, so its other
files may call the launchers, even while they are missing or out of date.
A kernel that fails to build is reported at the Go line that built it; a
name the launchers would take that the package has already (a kernel
called kernels, a function called launch) is reported with the fix.
Meant for a go:generate line in the package:

  //go:generate go tool obsgen run .

with obsgen a tool of the module (go get -tool github.com/obsidian-go/obsidian/cmd/obsgen).`

func runPackage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", runSynopsis)
	out := fs.String("o", "", "folder to write the .cu files to (default: the package's folder)")
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
	if strings.Contains(pkgDir, "...") {
		return usageError(fs, stderr, "%s is a pattern: name one package folder", pkgDir)
	}
	l, err := describe(pkgDir)
	if err != nil {
		return err
	}
	if *out != "" {
		if l.pkg.CUDADir, err = filepath.Abs(*out); err != nil {
			return err
		}
	}
	if err := checkKernelsFunc(l.pkg); err != nil {
		return err
	}
	if err := runDriver(l, stdout, stderr); err != nil {
		return err
	}
	return checkCompiles(l.pkg)
}

// listed is what the go command says of the package in a folder.
type listed struct {
	pkg    gen.Package
	module string   // the root folder of its module
	files  []string // the Go files it builds from (not its tests'), absolute
	// importNames maps the import path of each package it depends on to
	// that package's name.
	importNames map[string]string
}

// describe returns the package in dir as the go command sees it.
func describe(dir string) (listed, error) {
	cmd := exec.Command("go", "list", "-deps", "-json=Name,ImportPath,Dir,Module,GoFiles,DepOnly", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return listed{}, fmt.Errorf("%s: no Go package there: %v\n%s", dir, err, stderr.Bytes())
	}
	l := listed{importNames: map[string]string{}}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p struct {
			Name, ImportPath, Dir string
			Module                *struct{ Dir string }
			GoFiles               []string
			DepOnly               bool
		}
		if err := dec.Decode(&p); err != nil {
			return listed{}, fmt.Errorf("%s: reading go list's answer: %v", dir, err)
		}
		l.importNames[p.ImportPath] = p.Name
		if p.DepOnly {
			continue
		}
		if p.Module == nil {
			return listed{}, fmt.Errorf("%s: the package is in no module", dir)
		}
		l.pkg = gen.Package{Name: p.Name, Path: p.ImportPath, Dir: p.Dir}
		l.module = p.Module.Dir
		for _, f := range p.GoFiles {
			l.files = append(l.files, filepath.Join(p.Dir, f))
		}
	}
	if l.module == "" {
		return listed{}, fmt.Errorf("%s: go list did not describe the package", dir)
	}
	return l, nil
}

// checkKernelsFunc checks that the package declares Kernels outside its
// test files, which the driver and the launchers call.
func checkKernelsFunc(pkg gen.Package) error {
	scope, err := gen.ReadScope(pkg.Dir, pkg.Name)
	if err != nil {
		return err
	}
	if where, ok := scope.Declared["Kernels"]; !ok || strings.HasSuffix(where.Filename, "_test.go") {
		return fmt.Errorf("package %s (%s) declares no Kernels function outside its tests: obsgen run generates the files of a package that defines func Kernels() []*dsl.Kernel", pkg.Path, pkg.Dir)
	}
	return nil
}

// runDriver writes the driver program of l's package into a temporary
// folder of its module, runs it and removes it. The package is compiled
// for it with only what its Kernels function needs (gen.KernelSources), so
// that its launcher file, which may be missing or out of date, and
// whatever calls it are left out.
func runDriver(l listed, stdout, stderr io.Writer) error {
	src, err := gen.DriverFile(l.pkg)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(l.module, ".obsgen-driver-")
	if err != nil {
		return fmt.Errorf("writing the driver program into the module's folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	main := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(main, src, 0o644); err != nil {
		return err
	}
	overlay, err := writeOverlay(l, tmp)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "run", "-overlay", overlay, main)
	cmd.Dir = l.module
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("generating the files of package %s (%s) failed: %v", l.pkg.Path, l.pkg.Dir, err)
	}
	return nil
}

// writeOverlay writes into tmp the sources of l's package that the driver
// compiles, and the go command's overlay file that puts them in place of
// the package's files, and returns the overlay file's path.
func writeOverlay(l listed, tmp string) (string, error) {
	files := map[string][]byte{}
	launcher := filepath.Join(l.pkg.Dir, gen.LauncherFileName(l.pkg.Name))
	for _, path := range append(l.files, launcher) {
		src, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) && path == launcher {
			continue
		}
		if err != nil {
			return "", err
		}
		files[path] = src
	}
	sources, err := gen.KernelSources(l.pkg.Name, files, l.importNames)
	if err != nil {
		return "", fmt.Errorf("package %s (%s): %w", l.pkg.Path, l.pkg.Dir, err)
	}
	replace := map[string]string{}
	for path, src := range sources {
		if src == nil {
			replace[path] = "" // left out
			continue
		}
		f, err := os.CreateTemp(tmp, "*-"+filepath.Base(path))
		if err != nil {
			return "", err
		}
		_, err = f.Write(src)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", err
		}
		replace[path] = f.Name()
	}
	overlay, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(tmp, "overlay.json")
	return path, os.WriteFile(path, overlay, 0o644)
}

// checkCompiles builds the package with its new launcher file.
func checkCompiles(pkg gen.Package) error {
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Dir = pkg.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("the files of package %s were written, but it does not compile with them (%v):\n%s", pkg.Path, err, bytes.TrimSpace(out))
	}
	return nil
}
