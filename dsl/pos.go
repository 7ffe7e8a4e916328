package dsl

import (
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

// callerPos returns the position of the first stack frame outside the DSL's
// own packages: the user's line that is building the current node.
func callerPos() ir.Pos {
	var pcs [128]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !isInternal(f.Function) {
			return ir.Pos{File: f.File, Line: f.Line}
		}
		if !more {
			return ir.Pos{File: f.File, Line: f.Line}
		}
	}
}

func isInternal(function string) bool {
	for _, p := range internalPackages {
		if strings.HasPrefix(function, p) {
			return true
		}
	}
	return false
}
