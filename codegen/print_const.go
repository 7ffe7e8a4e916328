package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/obsidian-go/obsidian/ir"
)

// cConst returns the exact C spelling of a constant.
func cConst(v ir.Value) string {
	switch {
	case v.T.IsInteger() && v.T.Size() < 4:
		return "(" + v.T.C() + ")" + strconv.FormatInt(v.Int(), 10)
	case v.T.IsStorageFloat():
		return fmt.Sprintf("(unsigned short)0x%04x", v.Bits)
	}
	switch v.T {
	case ir.Bool:
		return strconv.FormatBool(v.Bool())
	case ir.Int32:
		if v.Int() == math.MinInt32 {
			return "(-2147483647 - 1)"
		}
		return strconv.FormatInt(v.Int(), 10)
	case ir.Uint32:
		return strconv.FormatUint(v.Bits, 10) + "u"
	case ir.Int64:
		if v.Int() == math.MinInt64 {
			return "(-9223372036854775807ll - 1)"
		}
		return strconv.FormatInt(v.Int(), 10) + "ll"
	case ir.Uint64:
		return strconv.FormatUint(v.Bits, 10) + "ull"
	case ir.Float32:
		f := float64(math.Float32frombits(uint32(v.Bits)))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("__int_as_float(0x%08x)", uint32(v.Bits))
		}
		return decimal(strconv.FormatFloat(f, 'g', -1, 32)) + "f"
	case ir.Float64:
		f := math.Float64frombits(v.Bits)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("__longlong_as_double(0x%016xll)", v.Bits)
		}
		return decimal(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return "0"
}

// decimal makes a formatted float a C floating literal ("1" → "1.0").
func decimal(s string) string {
	if strings.ContainsAny(s, ".e") {
		return s
	}
	return s + ".0"
}

// tableBits is how a constant table of floats with an infinity is held:
// as the words of its values' bits (a file-scope initializer must be a
// constant expression, and C has none for an infinity that NVRTC
// accepts), read back through the reinterpretation read.
type tableBits struct {
	word ir.Type
	read string
}

// tableBitsOf are the tableBits of each float type.
var tableBitsOf = map[ir.Type]tableBits{
	ir.Float32: {ir.Uint32, "__int_as_float"},
	ir.Float64: {ir.Uint64, "__longlong_as_double"},
}

// literal returns the C literal of v's bits as a word of b, in hex.
func (b tableBits) literal(v ir.Value) string {
	suffix := map[ir.Type]string{ir.Uint32: "u", ir.Uint64: "ull"}[b.word]
	return fmt.Sprintf("0x%0*x%s", 2*b.word.Size(), v.Bits, suffix)
}

// bitTable returns how a is held when it is a constant table of floats of
// which a value is infinite, or nil when it is held as its elements.
func bitTable(a *ir.Array) *tableBits {
	b, ok := tableBitsOf[a.Elem]
	if a.Space != ir.Constant || !ok {
		return nil
	}
	for _, v := range a.Values {
		if math.IsInf(v.Float(), 0) {
			return &b
		}
	}
	return nil
}
