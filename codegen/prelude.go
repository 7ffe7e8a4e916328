package codegen

import _ "embed"

//go:embed prelude.h
var prelude string

// Prelude returns a header that declares, for clang in CUDA device mode
// without the CUDA headers, everything the printed CUDA C uses: the
// qualifiers, the thread and block indices, barriers, shuffles, ballot,
// match, the atomics and the min/max functions. It lets the printer's
// output be checked with clang where no CUDA toolkit is installed:
//
//	clang -x cuda --cuda-device-only -nocudainc -nocudalib -include prelude.h ...
//
// NVRTC does not need it.
func Prelude() string { return prelude }
