package gen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Build builds every kernel of builders, returning every mistake (each at
// the user's Go line); a nil builder and two kernels of one name are
// mistakes too.
func Build(builders []*dsl.Kernel) ([]*ir.Kernel, error) {
	var errs []error
	var kernels []*ir.Kernel
	names := map[string]bool{}
	for i, b := range builders {
		if b == nil {
			errs = append(errs, fmt.Errorf("kernel %d of the list is nil", i))
			continue
		}
		k, err := b.Build()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if names[k.Name] {
			errs = append(errs, ir.Errorf(k.Pos, "a second kernel called %s", k.Name))
			continue
		}
		names[k.Name] = true
		kernels = append(kernels, k)
	}
	if len(builders) == 0 {
		errs = append(errs, errors.New("no kernels"))
	}
	return kernels, errors.Join(errs...)
}

// Files returns the generated files of a package: name → content.
type Files map[string][]byte

// CUDAFiles returns <kernel>.cu for every kernel, each saying it was made
// by madeBy.
func CUDAFiles(kernels []Printed, madeBy string) Files {
	files := Files{}
	for _, p := range kernels {
		files[p.Kernel.Name+".cu"] = []byte(p.CUDAFile(madeBy))
	}
	return files
}

// PackageFiles prints every kernel and returns the files of Go package pkg:
// <kernel>.cu for every kernel and the launcher file.
func PackageFiles(pkg, madeBy string, kernels []*ir.Kernel) (Files, error) {
	printed := make([]Printed, len(kernels))
	for i, k := range kernels {
		p, err := Print(k)
		if err != nil {
			return nil, err
		}
		printed[i] = p
	}
	files := CUDAFiles(printed, madeBy)
	launchers, err := LauncherFile(pkg, madeBy, printed)
	if err != nil {
		return nil, err
	}
	files[LauncherFileName(pkg)] = launchers
	return files, nil
}

// Write writes files into dir (created if missing), leaving files whose
// content is unchanged untouched. It returns the paths written, sorted.
func (files Files) Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for name, content := range files {
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, content) {
			continue
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	sort.Strings(written)
	return written, nil
}

// RemoveStale removes the generated .cu files of dir (those that begin
// with Header) that files does not hold: those of kernels a package no
// longer has.
func (files Files) RemoveStale(dir string) error {
	old, err := filepath.Glob(filepath.Join(dir, "*.cu"))
	if err != nil {
		return err
	}
	for _, path := range old {
		if _, keep := files[filepath.Base(path)]; keep {
			continue
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.HasPrefix(content, []byte(Header+"\n")) {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	return nil
}
