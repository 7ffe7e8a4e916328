package ir

import "testing"

// FuzzOperations applies every operation of the table to arbitrary bits of
// every type it takes: it must not panic, must give a value of its result
// type within the type's width, and must fault only as its fault rule says.
func FuzzOperations(f *testing.F) {
	f.Add(uint64(0), uint64(0), uint64(0))
	f.Add(uint64(1)<<63, ^uint64(0), uint64(32))
	f.Add(uint64(0x7fc00000), uint64(0x80000000), uint64(0x7ff8000000000001))
	f.Fuzz(func(t *testing.T, x, y, z uint64) {
		for _, o := range tables() {
			for _, typ := range o.Types.Types() {
				args := []Value{{T: typ, Bits: x & typ.Mask()}, {T: typ, Bits: y & typ.Mask()}, {T: typ, Bits: z & typ.Mask()}}
				v, fault, ok := o.Apply(args[:o.Arity]...)
				switch {
				case !ok:
					t.Fatalf("%s does not apply to %v", o.Name, typ)
				case fault != NoFault && o.FaultsFor(typ) == NeverFaults:
					t.Fatalf("%s%v faults (%v) though it never should", o.Name, args[:o.Arity], fault)
				case fault == NoFault && (v.T != o.Result.Of(typ) || v.Bits&^v.T.Mask() != 0):
					t.Fatalf("%s%v = %#v: not a %v", o.Name, args[:o.Arity], v, o.Result.Of(typ))
				}
			}
		}
	})
}
