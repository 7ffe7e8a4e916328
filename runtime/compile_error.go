package runtime

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/obsidian-go/obsidian/ir"
)

// CompileError is NVRTC rejecting a kernel's CUDA text. Its message is
// NVRTC's log with each CUDA line a diagnostic names quoted after it (unless
// NVRTC quoted it already), and says where the kernel was defined in Go when
// that is known.
type CompileError struct {
	Kernel string // the kernel's name
	Pos    ir.Pos // where the kernel was defined in Go; zero when unknown
	Arch   string // the --gpu-architecture compiled for
	NVRTC  string // NVRTC's version
	Log    string // NVRTC's log
	Source string // the CUDA text
}

// diagnostic matches a line of NVRTC's log naming a source line:
// "vadd.cu(12): error: expected a \";\"".
var diagnostic = regexp.MustCompile(`^(.*)\((\d+)\): (error|warning)`)

// Lines returns the CUDA line numbers (from 1) that the log reports errors
// on, in the log's order.
func (e *CompileError) Lines() []int {
	var lines []int
	for _, l := range strings.Split(e.Log, "\n") {
		if m := diagnostic.FindStringSubmatch(l); m != nil && m[3] == "error" {
			n, _ := strconv.Atoi(m[2])
			lines = append(lines, n)
		}
	}
	return lines
}

// Error implements error.
func (e *CompileError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "compiling kernel %s", e.Kernel)
	if e.Pos.File != "" {
		fmt.Fprintf(&b, " (defined at %s)", e.Pos)
	}
	fmt.Fprintf(&b, " for %s with NVRTC %s failed:", e.Arch, e.NVRTC)
	source := strings.Split(e.Source, "\n")
	log := strings.Split(strings.TrimRight(e.Log, "\n"), "\n")
	for i, l := range log {
		b.WriteString("\n" + l)
		m := diagnostic.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if n < 1 || n > len(source) {
			continue
		}
		// Newer NVRTC versions quote the line themselves, on the next line.
		if i+1 < len(log) && strings.TrimSpace(log[i+1]) == strings.TrimSpace(source[n-1]) {
			continue
		}
		fmt.Fprintf(&b, "\n  %5d | %s", n, source[n-1])
	}
	return b.String()
}
