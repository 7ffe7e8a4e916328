package runtime_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

func TestCompileErrorQuotesOffendingLines(t *testing.T) {
	e := &runtime.CompileError{
		Kernel: "vadd",
		Pos:    ir.Pos{File: "kernels.go", Line: 42},
		Arch:   "sm_90",
		NVRTC:  "13.0",
		Source: "extern \"C\" __global__ void vadd() {\n  int x = 1\n  y = 2;\n}\n",
		Log: "vadd.cu(2): error: expected a \";\"\n" +
			"vadd.cu(3): error: identifier \"y\" is undefined\n" +
			"vadd.cu(3): warning: something harmless\n\n" +
			"2 errors detected in the compilation of \"vadd.cu\".\n",
	}
	if got := e.Lines(); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("Lines() = %v, want [2 3]", got)
	}
	msg := e.Error()
	for _, want := range []string{
		"compiling kernel vadd (defined at kernels.go:42) for sm_90 with NVRTC 13.0 failed:",
		"vadd.cu(2): error: expected a \";\"\n      2 |   int x = 1\n",
		"vadd.cu(3): error: identifier \"y\" is undefined\n      3 |   y = 2;\n",
		"2 errors detected",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	e.Log = "vadd.cu(2): error: expected a \";\"\n    int x = 1\n             ^\n"
	if got := strings.Count(e.Error(), "int x = 1"); got != 1 {
		t.Errorf("a line NVRTC quoted itself appears %d times:\n%s", got, e.Error())
	}
	e.Pos = ir.Pos{}
	if strings.Contains(e.Error(), "defined at") {
		t.Error("message gives a Go position for a kernel without one")
	}
}
