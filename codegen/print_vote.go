package codegen

import "github.com/obsidian-go/obsidian/ir"

// A ballot's predicate reaches the vote as an int (CUDA's __ballot_sync
// takes one). A predicate x != 0 with x a 32-bit integer is passed as x
// itself: passing the comparison's bool has the compiler turn it back into
// an integer and compare that again, three instructions where the vote
// needs one.

// agreeHelper is the C definition of the helper that makes an Agree
// ballot: the vote of x != 0 in inline PTX, complemented where x is 0.
// For x = d & 2^k the compiler makes each of a digit's votes about four
// instructions; written wholly in C it sees through the mask and takes
// seven. The predicate stays inside the PTX: ptxas (CUDA 13.0) fails to
// allocate registers for some kernels of 1024 threads when a predicate of
// inline PTX lives past its vote. Complementing the ballot inside the
// PTX, under the predicate or by a mask selected by it, trips the same
// failure (a block of 1024 threads splitting by 8 bits); a mask made
// without a predicate, min(x, 1) - 1, compiles but takes more
// instructions than this in the block sort.
const agreeHelper = "static __device__ __forceinline__ unsigned int __obs_agree(unsigned int x) { unsigned int b; " +
	`asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }" : "=r"(b) : "r"(x)); ` +
	"return x != 0u ? b : ~b; }"

// voteOperand returns x for a ballot's predicate x != 0 with x a 32-bit
// integer, which the vote takes as it is (nonzero where the predicate
// holds). Common subexpressions leave the comparison in place for it.
func voteOperand(pred ir.Expr) (ir.Expr, bool) {
	if b, ok := pred.(*ir.Binary); ok && b.Op == ir.Ne && isZero(b.Y) {
		if t := b.X.Type(); t.IsInteger() && t.Size() == 4 {
			return b.X, true
		}
	}
	return nil, false
}

// isZero reports whether e is the constant 0.
func isZero(e ir.Expr) bool {
	c, ok := e.(*ir.Const)
	return ok && c.Value.IsZero()
}

// printBallot prints ballot s, its predicate prepared.
func (p *printer) printBallot(s *ir.Ballot) {
	p.forget(func(v *ir.Var) bool { return v == s.Result })
	e := p.prepare([]ir.Expr{s.Pred})
	if x, ok := voteOperand(e[0]); ok {
		p.line("%s = %s%s);", s.Result.Name, voteFunction[s.Agree], expr(x))
		return
	}
	pred := expr(e[0])
	if s.Agree { // a bool, as 0 or 1
		pred = "(unsigned int)" + operand(e[0], precUnary, false)
	}
	p.line("%s = %s%s);", s.Result.Name, voteFunction[s.Agree], pred)
}

// voteFunction is the vote that prints a ballot, by its Agree.
var voteFunction = map[bool]string{false: "__ballot_sync(0xffffffffu, ", true: "__obs_agree("}
