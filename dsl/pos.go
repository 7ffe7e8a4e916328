package dsl

import (
	"path"
	"runtime"
	"strings"

	"github.com/obsidian-go/obsidian/ir"
)

// internalPackages are the packages whose frames are skipped when looking for
// the user's line: the DSL itself and the array combinators built on it.
var internalPackages = []string{
	"github.com/obsidian-go/obsidian/dsl.",
	"github.com/obsidian-go/obsidian/arrays.",
	"github.com/obsidian-go/obsidian/ir.",
}

// internalDirs are the directories of the source files of internalPackages.
// A frame is found internal by its file too: a closure of a function that
// the compiler inlined into the user's code (as it does with small generic
// combinators) is named after the user's function, not the package's.
var internalDirs = func() map[string]bool {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return nil
	}
	root := path.Dir(path.Dir(file))
	return map[string]bool{root + "/dsl": true, root + "/arrays": true, root + "/ir": true}
}()

// callerPos returns the position of the first stack frame outside the DSL's
// own packages: the user's line that is building the current node.
func callerPos() ir.Pos {
	var pcs [128]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !isInternal(f) {
			return ir.Pos{File: f.File, Line: f.Line}
		}
		if !more {
			return ir.Pos{File: f.File, Line: f.Line}
		}
	}
}

// isInternal reports whether f runs code of internalPackages: a function of
// theirs, or code of a source file of theirs inlined elsewhere. Test files
// in their directories are the user's code.
func isInternal(f runtime.Frame) bool {
	for _, p := range internalPackages {
		if strings.HasPrefix(f.Function, p) {
			return true
		}
	}
	return internalDirs[path.Dir(f.File)] && !strings.HasSuffix(f.File, "_test.go")
}
