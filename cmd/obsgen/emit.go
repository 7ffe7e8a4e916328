package main

import (
	"flag"
	"fmt"
	"go/token"
	"io"
	"maps"
	"strings"

	"github.com/obsidian-go/obsidian/gen"
	"github.com/obsidian-go/obsidian/internal/catalog"
	"github.com/obsidian-go/obsidian/ir"
)

const emitSynopsis = `emit [-o DIR] [-threads N] [-go PKG] [kernel ...]

Writes DIR/<kernel>.cu for each catalogue kernel named, or for all of them
("obsgen list" shows them). With -go PKG it also writes DIR/PKG_launch.go,
typed Go launchers of package PKG for those kernels; on devices other than
GPUs they build the kernels from the package's Kernels() function, which
PKG must then define (see package gen).`

func emit(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("emit", emitSynopsis)
	dir := fs.String("o", ".", "folder to write the files to (created if missing)")
	threads := fs.Int("threads", 0, fmt.Sprintf("threads per block, 1 to %d, for the kernels whose block size can change (0: each kernel's own)", maxThreads))
	pkg := fs.String("go", "", "also write launchers of Go package `PKG` to DIR/PKG_launch.go")
	if err := parse(fs, args, stdout, stderr); err != nil {
		return err
	}
	if *dir == "" {
		return usageError(fs, stderr, "-o needs a folder")
	}
	if *threads < 0 || *threads > maxThreads {
		return usageError(fs, stderr, "-threads %d is out of range: want 0 (each kernel's own block size) or 1 to %d threads per block", *threads, maxThreads)
	}
	if *pkg != "" && (!token.IsIdentifier(*pkg) || *pkg == "_") {
		return usageError(fs, stderr, "-go %q is not a Go package name", *pkg)
	}
	entries, err := selectEntries(fs, stderr)
	if err != nil {
		return err
	}
	printed := make([]gen.Printed, 0, len(entries))
	files := gen.Files{}
	for _, e := range entries {
		k, command, err := buildEntry(e, *threads, stderr)
		if err != nil {
			return err
		}
		p, err := gen.Print(k)
		if err != nil {
			return err
		}
		printed = append(printed, p)
		cu, err := gen.CUDAFiles([]gen.Printed{p}, command)
		if err != nil {
			return err
		}
		maps.Copy(files, cu)
	}
	if *pkg != "" {
		scope, err := gen.ReadScope(*dir, *pkg)
		if err != nil {
			return err
		}
		launchers, err := gen.LauncherFile(scope, emitCommand(fs), printed)
		if err != nil {
			return err
		}
		files[gen.LauncherFileName(*pkg)] = launchers
	}
	return writeFiles(files, *dir, stdout)
}

// maxThreads is the most threads per block CUDA allows.
const maxThreads = 1024

// selectEntries returns the catalogue entries named on the command line, or
// all of them.
func selectEntries(fs *flag.FlagSet, stderr io.Writer) ([]catalog.Entry, error) {
	entries := catalog.Entries()
	if fs.NArg() == 0 {
		return entries, nil
	}
	byName := map[string]catalog.Entry{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	var chosen []catalog.Entry
	named := map[string]bool{}
	for _, name := range fs.Args() {
		e, ok := byName[name]
		switch {
		case strings.HasPrefix(name, "-"):
			return nil, usageError(fs, stderr, "flag %s after the kernel names: flags come first", name)
		case !ok:
			return nil, usageError(fs, stderr, "no kernel %q (obsgen list shows them)", name)
		case named[name]:
			return nil, usageError(fs, stderr, "kernel %s named twice", name)
		}
		named[name] = true
		chosen = append(chosen, e)
	}
	return chosen, nil
}

// buildEntry builds e's kernel, for threads threads per block when that is
// not 0 and e's block size can change, and returns the command that makes
// its .cu file.
func buildEntry(e catalog.Entry, threads int, stderr io.Writer) (*ir.Kernel, string, error) {
	if threads != 0 {
		k, ok, err := e.KernelWithThreads(threads)
		if ok {
			return k, fmt.Sprintf("obsgen emit -threads %d %s", threads, e.Name), err
		}
		fmt.Fprintf(stderr, "obsgen emit: %s has a fixed block size; -threads does not apply to it\n", e.Name)
	}
	k, err := e.Kernel()
	return k, "obsgen emit " + e.Name, err
}

// emitCommand returns the emit command line that fs parsed, without -o.
func emitCommand(fs *flag.FlagSet) string {
	parts := []string{"obsgen emit"}
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "o" {
			parts = append(parts, "-"+f.Name+" "+f.Value.String())
		}
	})
	return strings.Join(append(parts, fs.Args()...), " ")
}

// writeFiles writes files into dir and prints what it wrote. It replaces
// files that obsgen generated, never others.
func writeFiles(files gen.Files, dir string, stdout io.Writer) error {
	written, err := files.Write(dir, "")
	if err == nil {
		gen.Report{Of: dir, Wrote: written, Unchanged: len(files) - len(written)}.Print(stdout)
	}
	return err
}
