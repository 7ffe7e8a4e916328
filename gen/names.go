package gen

import (
	"go/token"
	"strings"
	"unicode"
)

// exportedName returns the Go name of a kernel's launcher: the kernel's
// name with the first letter of each part (split at characters that are not
// letters or digits) upper-cased.
func exportedName(kernel string) string {
	var b strings.Builder
	upper := true
	for _, r := range kernel {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			upper = true
		case upper:
			b.WriteRune(unicode.ToUpper(r))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || !unicode.IsLetter([]rune(name)[0]) {
		name = "K" + name
	}
	return name
}

// paramNames returns Go parameter names for the kernel parameters names:
// each name itself when it is a Go identifier that is no keyword, no
// predeclared identifier and not reserved (the names a launcher's body
// uses: its own parameters, its imports), otherwise with "Arg" appended
// until it is none of those and unique. A name that is no identifier, or
// that begins with obsgen (the prefix of the launcher file's own names),
// becomes "p" and its exportedName.
func paramNames(names []string, reserved map[string]bool) []string {
	taken := map[string]bool{}
	out := make([]string, len(names))
	for i, n := range names {
		if !token.IsIdentifier(n) || strings.HasPrefix(n, "obsgen") {
			n = "p" + exportedName(n)
		}
		for token.IsKeyword(n) || predeclared[n] || reserved[n] || taken[n] {
			n += "Arg"
		}
		taken[n] = true
		out[i] = n
	}
	return out
}

// predeclared holds Go's predeclared identifiers.
var predeclared = setOf(`any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32
	int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close complex
	copy delete imag len make max min new panic print println real recover`)

// setOf returns the set of the space-separated words of s.
func setOf(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}
