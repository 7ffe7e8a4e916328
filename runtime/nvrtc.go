package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// nvrtcAPI is NVRTC, CUDA's run-time compiler.
type nvrtcAPI struct {
	lib *library

	version, getErrorString, getNumSupportedArchs, getSupportedArchs *libFunc
	createProgram, compileProgram, destroyProgram                    *libFunc
	getProgramLogSize, getProgramLog                                 *libFunc
	getCUBINSize, getCUBIN, getPTXSize, getPTX                       *libFunc

	major, minor int
	archs        []int // the SM versions it compiles for, e.g. 90 for sm_90
}

// nvrtcErrorCompilation is NVRTC_ERROR_COMPILATION: the source has errors.
const nvrtcErrorCompilation = 6

var (
	nvrtcOnce sync.Once
	nvrtc     *nvrtcAPI
	nvrtcErr  error
)

// loadNVRTC binds NVRTC, once per process.
func loadNVRTC() (*nvrtcAPI, error) {
	nvrtcOnce.Do(func() {
		nvrtc, nvrtcErr = bindNVRTC(nvrtcCandidates(os.Getenv, filepath.Glob))
	})
	return nvrtc, nvrtcErr
}

// nvrtcCandidates lists where to look for NVRTC, in order: the names the
// dynamic loader resolves (unversioned, then by CUDA major version), then
// the library files in $CUDA_HOME, $CUDA_PATH and the /usr/local/cuda*
// folders, newest CUDA first.
func nvrtcCandidates(getenv func(string) string, glob func(string) ([]string, error)) []string {
	names := []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"}
	target := map[string]string{"amd64": "x86_64-linux", "arm64": "sbsa-linux"}[goruntime.GOARCH]
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if root := getenv(env); root != "" {
			dirs = append(dirs, filepath.Join(root, "lib64"), filepath.Join(root, "targets", target, "lib"))
		}
	}
	var roots []string
	for _, pattern := range []string{"/usr/local/cuda*/lib64", "/usr/local/cuda*/targets/" + target + "/lib"} {
		found, _ := glob(pattern)
		roots = append(roots, found...)
	}
	slices.SortStableFunc(roots, func(a, b string) int { return compareVersions(b, a) })
	dirs = append(dirs, roots...)
	for _, dir := range dirs {
		files, _ := glob(filepath.Join(dir, "libnvrtc.so*"))
		slices.SortFunc(files, func(a, b string) int { return compareVersions(b, a) })
		for _, f := range files {
			if !slices.Contains(names, f) {
				names = append(names, f)
			}
		}
	}
	return names
}

// compareVersions compares strings with their runs of digits compared as
// numbers, so that "cuda-12.10" sorts after "cuda-12.9".
func compareVersions(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, _ := strconv.ParseUint(a[:da], 10, 64)
			nb, _ := strconv.ParseUint(b[:db], 10, 64)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func bindNVRTC(candidates []string) (*nvrtcAPI, error) {
	lib, err := openLibrary("NVRTC (libnvrtc, the CUDA run-time compiler)", candidates)
	if err != nil {
		return nil, err
	}
	n := &nvrtcAPI{lib: lib}
	err = lib.bindAll(map[**libFunc][]string{
		&n.version:              {"nvrtcVersion"},
		&n.getErrorString:       {"nvrtcGetErrorString"},
		&n.getNumSupportedArchs: {"nvrtcGetNumSupportedArchs"},
		&n.getSupportedArchs:    {"nvrtcGetSupportedArchs"},
		&n.createProgram:        {"nvrtcCreateProgram"},
		&n.compileProgram:       {"nvrtcCompileProgram"},
		&n.destroyProgram:       {"nvrtcDestroyProgram"},
		&n.getProgramLogSize:    {"nvrtcGetProgramLogSize"},
		&n.getProgramLog:        {"nvrtcGetProgramLog"},
		&n.getCUBINSize:         {"nvrtcGetCUBINSize"},
		&n.getCUBIN:             {"nvrtcGetCUBIN"},
		&n.getPTXSize:           {"nvrtcGetPTXSize"},
		&n.getPTX:               {"nvrtcGetPTX"},
	})
	if err != nil {
		return nil, err
	}
	lib.errorName = n.errorName
	var major, minor, count int32
	if err := n.version.call(uintptr(unsafe.Pointer(&major)), uintptr(unsafe.Pointer(&minor))).err("asking NVRTC's version"); err != nil {
		return nil, err
	}
	n.major, n.minor = int(major), int(minor)
	if err := n.getNumSupportedArchs.call(uintptr(unsafe.Pointer(&count))).err("asking NVRTC's architectures"); err != nil {
		return nil, err
	}
	archs := make([]int32, count)
	if count > 0 {
		if err := n.getSupportedArchs.call(uintptr(unsafe.Pointer(&archs[0]))).err("asking NVRTC's architectures"); err != nil {
			return nil, err
		}
	}
	for _, a := range archs {
		n.archs = append(n.archs, int(a))
	}
	return n, nil
}

// errorName returns the name of an nvrtcResult, e.g. "NVRTC_ERROR_COMPILATION".
func (n *nvrtcAPI) errorName(code int32) string {
	r := n.getErrorString.call(uintptr(code))
	if name := goString(*(**byte)(unsafe.Pointer(&r.raw))); name != "" {
		return name
	}
	return fmt.Sprintf("nvrtcResult(%d)", code)
}

// CompilerInfo describes the NVRTC library kernels are compiled with.
type CompilerInfo struct {
	Path    string // the library loaded, as found
	Version string // e.g. "13.0"
	Archs   []int  // the SM versions it compiles CUBINs for, e.g. 90 for sm_90
}

// Compiler binds NVRTC if that has not been done yet and describes it. The
// error says where NVRTC was looked for when it was not found.
func Compiler() (CompilerInfo, error) {
	n, err := loadNVRTC()
	if err != nil {
		return CompilerInfo{}, err
	}
	return CompilerInfo{Path: n.lib.path, Version: n.versionString(), Archs: slices.Clone(n.archs)}, nil
}

// versionString returns NVRTC's version, e.g. "13.0".
func (n *nvrtcAPI) versionString() string { return fmt.Sprintf("%d.%d", n.major, n.minor) }

// compileTarget is what NVRTC compiles a kernel to for one GPU.
type compileTarget struct {
	arch  string // the --gpu-architecture value: sm_90 (CUBIN) or compute_90 (PTX)
	cubin bool
}

// targetFor chooses the target for a GPU of compute capability sm (e.g. 90)
// from the architectures NVRTC supports: a CUBIN for the GPU's own
// architecture when NVRTC knows it, else PTX for the newest architecture it
// knows that the GPU can run, which the driver compiles when loading.
func targetFor(sm int, supported []int) (compileTarget, error) {
	if slices.Contains(supported, sm) {
		return compileTarget{arch: fmt.Sprintf("sm_%d", sm), cubin: true}, nil
	}
	best := 0
	for _, a := range supported {
		if a <= sm && a > best {
			best = a
		}
	}
	if best == 0 {
		return compileTarget{}, fmt.Errorf("NVRTC supports none of the architectures a GPU of compute capability %d.%d runs (it supports %v)", sm/10, sm%10, supported)
	}
	return compileTarget{arch: fmt.Sprintf("compute_%d", best)}, nil
}

// compile compiles CUDA text to a CUBIN or PTX image. The log is NVRTC's
// output (warnings too); failed is true when the source has errors, in which
// case the log says which.
func (n *nvrtcAPI) compile(src, file string, target compileTarget, options []string) (image []byte, log string, failed bool, err error) {
	var prog uintptr
	if err := n.createProgram.call(uintptr(unsafe.Pointer(&prog)), uintptr(unsafe.Pointer(cString(src))),
		uintptr(unsafe.Pointer(cString(file))), 0, 0, 0).err("creating an NVRTC program for " + file); err != nil {
		return nil, "", false, err
	}
	defer func() { n.destroyProgram.call(uintptr(unsafe.Pointer(&prog))) }()
	opts := make([]*byte, len(options))
	for i, o := range options {
		opts[i] = cString(o)
	}
	compiled := n.compileProgram.call(prog, uintptr(len(opts)), uintptr(unsafe.Pointer(unsafe.SliceData(opts))))
	log, err = n.programLog(prog)
	if err != nil {
		return nil, "", false, err
	}
	if compiled.code == nvrtcErrorCompilation {
		return nil, log, true, nil
	}
	if err := compiled.err("compiling " + file + " with options " + strings.Join(options, " ")); err != nil {
		if log != "" {
			err = fmt.Errorf("%w; NVRTC's log:\n%s", err, log)
		}
		return nil, log, false, err
	}
	sizeFn, getFn, what := n.getPTXSize, n.getPTX, "PTX"
	if target.cubin {
		sizeFn, getFn, what = n.getCUBINSize, n.getCUBIN, "CUBIN"
	}
	var size uintptr
	if err := sizeFn.call(prog, uintptr(unsafe.Pointer(&size))).err("asking the size of the " + what + " of " + file); err != nil {
		return nil, log, false, err
	}
	image = make([]byte, size)
	if size > 0 {
		if err := getFn.call(prog, uintptr(unsafe.Pointer(&image[0]))).err("getting the " + what + " of " + file); err != nil {
			return nil, log, false, err
		}
	}
	return image, log, false, nil
}

func (n *nvrtcAPI) programLog(prog uintptr) (string, error) {
	var size uintptr
	if err := n.getProgramLogSize.call(prog, uintptr(unsafe.Pointer(&size))).err("asking the size of NVRTC's log"); err != nil {
		return "", err
	}
	if size <= 1 {
		return "", nil
	}
	buf := make([]byte, size)
	if err := n.getProgramLog.call(prog, uintptr(unsafe.Pointer(&buf[0]))).err("getting NVRTC's log"); err != nil {
		return "", err
	}
	return string(buf[:size-1]), nil
}
