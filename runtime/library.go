package runtime

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// library is a shared library opened with dlopen.
type library struct {
	path   string
	handle uintptr
	// errorName names a result code of the library's functions.
	errorName func(code int32) string
}

// libFunc is a function of a library, called through purego with integer
// and pointer arguments only (which is all the CUDA driver and NVRTC
// functions used here take).
type libFunc struct {
	lib  *library
	name string
	addr uintptr
}

// result is what a libFunc returned: code is the CUresult or nvrtcResult of
// the functions that return one, raw the whole return register.
type result struct {
	fn   *libFunc
	code int32
	raw  uintptr
}

// Error is a failure reported by the CUDA driver or NVRTC.
type Error struct {
	Op   string // what was being done, e.g. "allocating 4096 bytes"
	Func string // the library function, e.g. "cuMemAlloc_v2"
	Code int    // the CUresult or nvrtcResult
	Name string // the code's name, e.g. "CUDA_ERROR_OUT_OF_MEMORY"
}

// Error implements error: "op: function: NAME (code)".
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s: %s (%d)", e.Op, e.Func, e.Name, e.Code)
}

// outOfMemoryNames are the codes of the CUDA driver and NVRTC that say
// memory ran out.
var outOfMemoryNames = map[string]bool{"CUDA_ERROR_OUT_OF_MEMORY": true, "NVRTC_ERROR_OUT_OF_MEMORY": true}

// Is reports whether the error is target: an *Error whose code says memory
// ran out is ErrOutOfMemory.
func (e *Error) Is(target error) bool {
	return target == ErrOutOfMemory && outOfMemoryNames[e.Name]
}

// openLibrary opens the first of candidates that loads. The error lists
// every candidate tried and why each failed.
func openLibrary(what string, candidates []string) (*library, error) {
	var tried []string
	for _, path := range candidates {
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			return &library{path: path, handle: h}, nil
		}
		if msg := err.Error(); strings.Contains(msg, path) {
			tried = append(tried, msg)
		} else {
			tried = append(tried, path+": "+msg)
		}
	}
	return nil, fmt.Errorf("%s not found; tried: %s", what, strings.Join(tried, "; "))
}

// bind looks up the first of names that the library exports.
func (l *library) bind(names ...string) (*libFunc, error) {
	for _, name := range names {
		if addr, err := purego.Dlsym(l.handle, name); err == nil && addr != 0 {
			return &libFunc{lib: l, name: name, addr: addr}, nil
		}
	}
	return nil, fmt.Errorf("%s does not export %s", l.path, strings.Join(names, " or "))
}

// bindAll binds each symbol of the table; its keys are where to store them.
func (l *library) bindAll(table map[**libFunc][]string) error {
	for dst, names := range table {
		f, err := l.bind(names...)
		if err != nil {
			return err
		}
		*dst = f
	}
	return nil
}

// call calls the function. Arguments that are pointers converted to uintptr
// in the call expression stay valid until it returns.
//
//go:uintptrescapes
func (f *libFunc) call(args ...uintptr) result {
	r, _, _ := purego.SyscallN(f.addr, args...)
	return result{fn: f, code: int32(r), raw: r}
}

// callValues calls the function with arguments that are values (handles,
// sizes, device addresses) or addresses of memory the caller keeps alive
// and in place for the call, such as a launch's pooled parameters; unlike
// call it allocates nothing, so that a launch and the events around it
// leave no garbage. A Go pointer made in the call expression is not kept
// alive here: such calls go through call.
func (f *libFunc) callValues(args ...uintptr) result {
	if len(args) > maxValueArgs {
		panic(fmt.Sprintf("runtime: %s called with %d arguments, more than callValues passes", f.name, len(args)))
	}
	buf := valueArgsPool.Get().(*[maxValueArgs]uintptr)
	n := copy(buf[:], args)
	r, _, _ := purego.SyscallN(f.addr, buf[:n]...)
	valueArgsPool.Put(buf)
	return result{fn: f, code: int32(r), raw: r}
}

// maxValueArgs is the most arguments callValues passes: cuLaunchKernel's
// eleven are the most of any function called through it.
const maxValueArgs = 11

// valueArgsPool holds callValues' argument lists, so that the list handed
// to purego (whose arguments escape) is not allocated a call.
var valueArgsPool = sync.Pool{New: func() any { return new([maxValueArgs]uintptr) }}

// err returns nil for success, else an *Error saying what was being done.
func (r result) err(op string) error {
	if r.code == 0 {
		return nil
	}
	return &Error{Op: op, Func: r.fn.name, Code: int(r.code), Name: r.fn.lib.errorName(r.code)}
}

// errf is err with a formatted description, built only on failure.
func (r result) errf(format string, args ...any) error {
	if r.code == 0 {
		return nil
	}
	return r.err(fmt.Sprintf(format, args...))
}

// goString copies a NUL-terminated C string.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// cString returns s as a NUL-terminated C string in Go memory.
func cString(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
}
