package eval

import (
	"fmt"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// TestAtomicFollowsCUDATable runs every atomic operation on every numeric
// element type: the pairs ir.AtomicSupported lists compute CUDA's answer,
// the others are errors.
func TestAtomicFollowsCUDATable(t *testing.T) {
	// With old = 5, Value = 3 and (CAS) Compare = 5, each operation stores:
	want := map[ir.AtomicOp]float64{
		ir.AtomicAdd: 8, ir.AtomicSub: 2, ir.AtomicInc: 0, ir.AtomicDec: 3, ir.AtomicMin: 3, ir.AtomicMax: 5,
		ir.AtomicAnd: 1, ir.AtomicOr: 7, ir.AtomicXor: 6, ir.AtomicExch: 3, ir.AtomicCAS: 3,
	}
	value := func(ty ir.Type, x float64) ir.Value {
		if ty.IsFloat() {
			return ir.FloatValue(ty, x)
		}
		return ir.UintValue(ty, uint64(x))
	}
	supported := 0
	for op := ir.AtomicAdd; op <= ir.AtomicCAS; op++ {
		for _, ty := range ir.Types {
			if !ty.IsNumeric() {
				continue
			}
			t.Run(fmt.Sprintf("%v/%v", op, ty), func(t *testing.T) {
				g := global("g", ty, ir.ReadWrite)
				s := &ir.Atomic{Op: op, Array: g, Index: u32(0), Value: &ir.Const{Value: value(ty, 3)}, Pos: at(31)}
				if op == ir.AtomicCAS {
					s.Compare = &ir.Const{Value: value(ty, 5)}
				}
				k := kernel(32, []*ir.Array{g}, nil, forAll(ir.GridThreads, index("i"), u32(1), 30, s))
				buf := NewBuffer(ty, 1)
				buf.Set(0, value(ty, 5))
				err := Launch(k, Config{Blocks: 1}, bufArgs(buf))
				if !ir.AtomicSupported(op, ty) {
					wantError(t, err, "user.go:31", fmt.Sprintf("atomic %v on array g of %v", op, ty))
					if got := buf.Get(0); got != value(ty, 5) {
						t.Errorf("the rejected atomic changed g[0] to %v", got)
					}
					return
				}
				supported++
				if err != nil {
					t.Fatal(err)
				}
				if got, w := buf.Get(0), value(ty, want[op]); got != w {
					t.Errorf("g[0] = %v after atomic %v, want %v", got, op, w)
				}
			})
		}
	}
	// Add on 6 types, Sub on 2, Inc and Dec on 1, seven more on 4 integer
	// types, Exch also on float32.
	if supported != 6+2+1+1+7*4+1 {
		t.Errorf("%d supported pairs ran, want %d", supported, 6+2+1+1+7*4+1)
	}
}
