package check

import (
	"fmt"
	"strings"
)

// reservedWords are the C++ keywords and the CUDA names the printed code
// uses; a kernel's names must not hide them.
var reservedWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
		class compl concept const consteval constexpr constinit const_cast continue co_await co_return
		co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float
		for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or
		or_eq private protected public register reinterpret_cast requires restrict return short signed
		sizeof static static_assert static_cast struct switch template this thread_local throw true try
		typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq
		threadIdx blockIdx blockDim gridDim warpSize smem min max fminf fmaxf fmin fmax fmodf fmod
		atomicAdd atomicSub atomicInc atomicDec atomicMin atomicMax atomicAnd atomicOr atomicXor
		atomicExch atomicCAS NULL`) {
		reservedWords[w] = true
	}
}

// checkName says what is wrong with name as a C identifier of a kernel, or
// returns "". Names ending in an underscore are kept for the printer's own
// locals.
func checkName(name string) string {
	if name == "" {
		return "an empty name"
	}
	for i, r := range name {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return fmt.Sprintf("name %q is not a C identifier", name)
		}
	}
	switch {
	case reservedWords[name]:
		return fmt.Sprintf("name %q is a C++ keyword or a name CUDA code uses", name)
	case strings.HasPrefix(name, "__") || (len(name) > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z'):
		return fmt.Sprintf("name %q is reserved in C++ (it starts with __ or _ and a capital)", name)
	case strings.HasSuffix(name, "_"):
		return fmt.Sprintf("name %q ends in an underscore, which is kept for generated locals", name)
	}
	return ""
}
