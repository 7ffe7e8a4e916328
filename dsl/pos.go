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
	// The stack is read a few frames at a time, nearest first: the user's
	// frame is most often among the first, and a kernel built inside many
	// nested closures has a deep stack that one read of it all would walk
	// for every node.
	var buf [maxCallerChunk]uintptr
	pcs := buf[:min(max(callerChunk, 1), maxCallerChunk)]
	var last runtime.Frame
	for skip := 2; ; skip += len(pcs) {
		n := runtime.Callers(skip, pcs)
		if n == 0 {
			return ir.Pos{File: last.File, Line: last.Line}
		}
		frames := runtime.CallersFrames(pcs[:n])
		for more := true; more; {
			last, more = frames.Next()
			if !isInternal(last) {
				return ir.Pos{File: last.File, Line: last.Line}
			}
		}
		if n < len(pcs) {
			return ir.Pos{File: last.File, Line: last.Line}
		}
	}
}

// callerChunk is the number of frames callerPos reads at a time, 1 to
// maxCallerChunk (a variable, so that the tests read a frame at a time).
var callerChunk = 16

const maxCallerChunk = 64

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
