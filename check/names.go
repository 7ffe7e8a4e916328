package check

import (
	"fmt"
	"strings"
)

// reservedNames maps each name a kernel, a parameter, an array or a variable
// must not have to what the name already is in the printed CUDA C: a C++
// keyword, a name CUDA defines (NVRTC declares its built-in variables, types
// and device functions in every program) or a name the printer or the
// prelude uses. A kernel of such a name would not compile, or would hide
// something the printed code calls.
var reservedNames = map[string]string{}

// reserve records names (separated by white space) as being what.
func reserve(what, names string) {
	for _, n := range strings.Fields(names) {
		if _, ok := reservedNames[n]; !ok {
			reservedNames[n] = what
		}
	}
}

func init() {
	reserve("a C++ keyword", `
		alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
		class compl concept const consteval constexpr constinit const_cast continue co_await co_return
		co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float
		for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or
		or_eq private protected public register reinterpret_cast requires restrict return short signed
		sizeof static static_assert static_cast struct switch template this thread_local throw true try
		typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq`)
	reserve("the name of a program's entry point", "main")
	reserve("a CUDA built-in variable", "threadIdx blockIdx blockDim gridDim warpSize")
	reserve("a CUDA built-in type", builtinTypes())
	reserve("a namespace of CUDA or C++", "std cuda nvcuda cooperative_groups")
	reserve("a function of CUDA's device runtime", `
		printf malloc free memcpy memset assert abort clock clock64 cudaMalloc cudaFree cudaDeviceSynchronize
		cudaGetLastError cudaPeekAtLastError`)
	reserve("a function of CUDA's math library", `
		abs labs llabs fabs fabsf min max umin umax llmin llmax ullmin ullmax fmin fminf fmax fmaxf fmod fmodf
		acos acosf acosh acoshf asin asinf asinh asinhf atan atanf atan2 atan2f atanh atanhf cbrt cbrtf ceil
		ceilf copysign copysignf cos cosf cosh coshf cospi cospif cyl_bessel_i0 cyl_bessel_i0f cyl_bessel_i1
		cyl_bessel_i1f erf erff erfc erfcf erfcinv erfcinvf erfcx erfcxf erfinv erfinvf exp expf exp10 exp10f
		exp2 exp2f expm1 expm1f fdim fdimf fdivide fdividef floor floorf fma fmaf frexp frexpf hypot hypotf
		ilogb ilogbf isfinite isinf isnan j0 j0f j1 j1f jn jnf ldexp ldexpf lgamma lgammaf llrint llrintf
		llround llroundf log logf log10 log10f log1p log1pf log2 log2f logb logbf lrint lrintf lround lroundf
		modf modff nan nanf nearbyint nearbyintf nextafter nextafterf norm norm3d norm3df norm4d norm4df
		normcdf normcdff normcdfinv normcdfinvf normf pow powf rcbrt rcbrtf remainder remainderf remquo
		remquof rhypot rhypotf rint rintf rnorm rnorm3d rnorm3df rnorm4d rnorm4df rnormf round roundf rsqrt
		rsqrtf scalbln scalblnf scalbn scalbnf signbit sin sinf sincos sincosf sincospi sincospif sinh sinhf
		sinpi sinpif sqrt sqrtf tan tanf tanh tanhf tgamma tgammaf trunc truncf y0 y0f y1 y1f yn ynf`)
	reserve("a CUDA atomic function", atomicFunctions())
	reserve("a name the printed code uses", "smem NULL")
}

// builtinTypes lists CUDA's vector types (int2, float4, ...), dim3 and the
// fixed-width integer types NVRTC defines.
func builtinTypes() string {
	names := []string{"dim3", "half", "half2", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"}
	for _, base := range strings.Fields("char uchar short ushort int uint long ulong longlong ulonglong float double") {
		for n := 1; n <= 4; n++ {
			names = append(names, fmt.Sprintf("%s%d", base, n))
		}
	}
	for _, bits := range []int{8, 16, 32, 64} {
		names = append(names, fmt.Sprintf("int%d_t", bits), fmt.Sprintf("uint%d_t", bits))
	}
	return strings.Join(names, " ")
}

// atomicFunctions lists CUDA's atomic functions with their _block and
// _system forms.
func atomicFunctions() string {
	var names []string
	for _, op := range strings.Fields("Add Sub Exch Min Max Inc Dec CAS And Or Xor") {
		names = append(names, "atomic"+op, "atomic"+op+"_block", "atomic"+op+"_system")
	}
	return strings.Join(names, " ")
}

// CheckName returns nil when name can name a kernel, a parameter, an array
// or a variable in the printed CUDA C, or an error saying why not: it is
// not a C identifier, it is a C++ keyword or a name CUDA defines (main,
// printf, sqrt, threadIdx, int4, atomicAdd, ...), it is reserved in C++
// (it starts with __, or with _ and a capital letter), or it ends in an
// underscore, which the printer keeps for its own locals.
func CheckName(name string) error {
	if msg := checkName(name); msg != "" {
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// checkName says what is wrong with name as a C identifier of a kernel, or
// returns "".
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
	switch what, reserved := reservedNames[name]; {
	case reserved:
		return fmt.Sprintf("name %q is %s", name, what)
	case strings.HasPrefix(name, "__") || (len(name) > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z'):
		return fmt.Sprintf("name %q is reserved in C++ (it starts with __ or _ and a capital)", name)
	case strings.HasSuffix(name, "_"):
		return fmt.Sprintf("name %q ends in an underscore, which is kept for generated locals", name)
	}
	return ""
}
