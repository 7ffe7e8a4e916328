package check

import (
	"github.com/obsidian-go/obsidian/ir"
)

// The layout of shared memory. Statements are numbered in program order;
// each shared array is live from its first to its last reference, widened
// to a whole loop when the array lives across iterations. Two arrays share
// bytes only if their lifetimes are disjoint and a block-level barrier that
// every thread passes lies between them (otherwise a slow thread could still
// read the first while another writes the second); inside a loop the
// barrier must also lie between the second and the first's use in the next
// iteration. (A GridBlocks loop has one: the printer ends each of its
// iterations with a barrier when the kernel uses shared memory.) Two arrays
// used only in opposite arms of a block-level If whose condition is the
// same in every thread also share bytes, when no For or While runs the If
// again: a block runs one arm or the other, never both.

// span is a range of statement numbers, both ends included.
type span struct{ lo, hi int }

func (s span) contains(n int) bool { return s.lo <= n && n <= s.hi }

// control is an If, For, While or ForAll: its own number and its children's.
type control struct {
	span
	loop bool // For, While or GridBlocks ForAll: its body runs again
	// barrierAtEnd: a GridBlocks ForAll, whose iterations the printer
	// separates with a barrier.
	barrierAtEnd bool
}

// reference is a use of a shared array by the statement numbered at.
// fills is the number of the For or While loop whose every iteration the
// use writes the whole array in (see fillsLoop), 0 for none.
type reference struct {
	at, fills int
}

// lifetimes holds the numbered kernel.
type lifetimes struct {
	controls []control
	syncs    []int // numbers of block-level barriers
	refs     map[*ir.Array][]reference
	live     map[*ir.Array]span // absent: never referenced
	// arms holds the statements of the then and else arms of each
	// block-level If of a uniform condition that no loop repeats.
	arms [][2]span
}

// sharedLayout is a placement of a kernel's shared arrays. Sizes and
// offsets are int64 and each array's size is checked before it is placed,
// so that no sum wraps however large the arrays are; check reports what
// does not fit before apply stores anything.
type sharedLayout struct {
	offsets  []int64 // by index in Kernel.Shared
	bytes    int64
	tooLarge []bool // by index in Kernel.Shared: the array's size alone is beyond any GPU (not placed)
}

// maxArrayBytes bounds the size of one shared array that layout places:
// far beyond any GPU's shared memory, and small enough that the offsets of
// any number of such arrays add up without overflow.
const maxArrayBytes = 1 << 40

// arrayBytes returns the size in bytes of shared array a in a block of
// the given threads (every warp's region of a PerWarp array), and false
// when it is negative or over maxArrayBytes (the multiplications are
// checked).
func arrayBytes(a *ir.Array, threads int) (int64, bool) {
	size := int64(a.Elem.Size()) * int64(a.Copies(max(threads, 0)))
	n := int64(a.Size)
	if n < 0 || (size > 0 && n > maxArrayBytes/size) {
		return 0, false
	}
	return n * size, true
}

// layout places k's shared arrays (k is not modified).
func layout(k *ir.Kernel) sharedLayout {
	lt := number(k)
	l := sharedLayout{offsets: make([]int64, len(k.Shared)), tooLarge: make([]bool, len(k.Shared))}
	bytes := make([]int64, len(k.Shared))
	for i, a := range k.Shared {
		if a == nil {
			continue
		}
		n, ok := arrayBytes(a, k.Threads)
		if !ok {
			l.tooLarge[i] = true
			continue
		}
		bytes[i] = n
		var clashes []byteRange // placed arrays a may not share bytes with
		for j, b := range k.Shared[:i] {
			if b != nil && !l.tooLarge[j] && !lt.canShare(a, b) {
				clashes = append(clashes, byteRange{l.offsets[j], l.offsets[j] + max(bytes[j], 1) - 1})
			}
		}
		off := lowestFree(clashes, max(n, 1))
		l.offsets[i] = off
		l.bytes = max(l.bytes, off+n)
	}
	return l
}

// byteRange is a range of bytes of shared memory, both ends included.
type byteRange struct{ lo, hi int64 }

// lowestFree returns the lowest 16-byte-aligned offset where n bytes clash
// with none of the taken byte ranges.
func lowestFree(taken []byteRange, n int64) int64 {
	candidates := []int64{0}
	for _, t := range taken {
		candidates = append(candidates, (t.hi+1+15)&^15)
	}
	best := int64(-1)
	for _, c := range candidates {
		free := true
		for _, t := range taken {
			if c <= t.hi && t.lo <= c+n-1 {
				free = false
				break
			}
		}
		if free && (best < 0 || c < best) {
			best = c
		}
	}
	return best
}

// check reports the first shared array whose size overflows or that ends
// beyond t's limit.
func (l sharedLayout) check(k *ir.Kernel, t Target) error {
	for i, a := range k.Shared {
		if a == nil {
			continue
		}
		if l.tooLarge[i] {
			return ir.Errorf(a.Pos, "shared memory: array %s of %d elements of %v is larger than any GPU's shared "+
				"memory (the limit is %d bytes per block)", a.Name, a.Size, a.Elem, t.MaxSharedBytes)
		}
		n, _ := arrayBytes(a, k.Threads)
		if end := l.offsets[i] + n; end > int64(t.MaxSharedBytes) {
			return ir.Errorf(a.Pos, "shared memory: array %s ends at byte %d (%d bytes in all), over the limit "+
				"of %d bytes per block", a.Name, end, l.bytes, t.MaxSharedBytes)
		}
	}
	return nil
}

// apply sets the offsets and the kernel's shared memory size; check has
// found that they fit the target, so they fit an int.
func (l sharedLayout) apply(k *ir.Kernel) {
	for i, a := range k.Shared {
		a.Offset = int(l.offsets[i])
	}
	k.SharedBytes = int(l.bytes)
}

// number numbers k's statements and computes the arrays' lifetimes.
func number(k *ir.Kernel) *lifetimes {
	lt := &lifetimes{refs: map[*ir.Array][]reference{}, live: map[*ir.Array]span{}}
	shared := map[*ir.Array]bool{}
	for _, a := range k.Shared {
		shared[a] = true
	}
	dep := analyseDependence(k)
	n := 0
	// inThreads counts the ForAlls of thread or warp bodies around the
	// statement, loops the For and While loops; around lists the control
	// statements around it, innermost last, with their numbers.
	inThreads, loops := 0, 0
	var around []numbered
	var walk func(body []ir.Stmt)
	// nested walks body inside s, numbered at.
	nested := func(s ir.Stmt, at int, body []ir.Stmt) {
		around = append(around, numbered{s, at})
		walk(body)
		around = around[:len(around)-1]
	}
	walk = func(body []ir.Stmt) {
		for _, s := range body {
			if s == nil {
				continue
			}
			n++
			at := n
			for _, e := range ir.Exprs(s) {
				ir.WalkExpr(e, func(e ir.Expr) {
					if l, ok := e.(*ir.Load); ok && shared[l.Array] {
						lt.refs[l.Array] = append(lt.refs[l.Array], reference{at: at})
					}
				})
			}
			switch s := s.(type) {
			case *ir.Store:
				if shared[s.Array] {
					lt.refs[s.Array] = append(lt.refs[s.Array], reference{at: at, fills: fillsLoop(s, around)})
				}
			case *ir.Atomic:
				if shared[s.Array] {
					lt.refs[s.Array] = append(lt.refs[s.Array], reference{at: at})
				}
			case *ir.Sync:
				if s.Level == ir.BlockLevel {
					lt.syncs = append(lt.syncs, at)
				}
			case *ir.If:
				nested(s, at, s.Then)
				then := span{at + 1, n}
				nested(s, at, s.Else)
				if inThreads == 0 && loops == 0 && dep.of(s.Cond) == uniform {
					lt.arms = append(lt.arms, [2]span{then, {then.hi + 1, n}})
				}
				lt.controls = append(lt.controls, control{span: span{at, n}})
			case *ir.For:
				loops++
				nested(s, at, s.Body)
				loops--
				lt.controls = append(lt.controls, control{span: span{at, n}, loop: true})
			case *ir.While:
				loops++
				nested(s, at, s.Body)
				loops--
				lt.controls = append(lt.controls, control{span: span{at, n}, loop: true})
			case *ir.ForAll:
				grid := s.Kind == ir.GridBlocks
				if !grid {
					inThreads++
				}
				nested(s, at, s.Body)
				if !grid {
					inThreads--
				}
				lt.controls = append(lt.controls, control{span: span{at, n}, loop: grid, barrierAtEnd: grid})
			}
		}
	}
	walk(k.Body)
	for a, refs := range lt.refs {
		lt.live[a] = lt.lifetime(refs)
	}
	return lt
}

// numbered is a control statement and its number.
type numbered struct {
	s  ir.Stmt
	at int
}

// fillsLoop returns the number of the For or While loop in whose every
// iteration the store to a shared array writes all of it, or 0: the
// store's index is the index of a ForAll of the block's threads over at
// least the array's length, and that ForAll lies directly in the loop's
// body, so that nothing skips it. around lists the control statements
// around the store, innermost last.
func fillsLoop(s *ir.Store, around []numbered) int {
	if len(around) < 2 || s.Array.PerWarp {
		return 0
	}
	threads, ok := around[len(around)-1].s.(*ir.ForAll)
	if !ok || threads.Kind != ir.BlockThreads || s.Index != ir.Expr(threads.Var) {
		return 0
	}
	if count, ok := ConstValue(threads.Count); !ok || count.Bits < uint64(s.Array.Size) {
		return 0
	}
	switch loop := around[len(around)-2]; loop.s.(type) {
	case *ir.For, *ir.While:
		return loop.at
	}
	return 0
}

// lifetime is the span from the first to the last reference, widened to
// every For or While loop that has references both inside and outside it,
// or whose first reference inside it is anything but a write of the whole
// array in every iteration (fillsLoop): an iteration may then read what an
// earlier one wrote. The iterations of a GridBlocks loop are blocks of
// their own, which never read what another wrote.
func (lt *lifetimes) lifetime(refs []reference) span {
	s := span{refs[0].at, refs[0].at}
	for _, r := range refs {
		s.lo, s.hi = min(s.lo, r.at), max(s.hi, r.at)
	}
	for _, c := range lt.controls {
		if !c.loop || c.barrierAtEnd {
			continue
		}
		var first *reference
		outside := false
		for i, r := range refs {
			if !c.contains(r.at) {
				outside = true
			} else if first == nil {
				first = &refs[i]
			}
		}
		if first != nil && (outside || first.fills != c.lo) {
			s.lo, s.hi = min(s.lo, c.lo), max(s.hi, c.hi)
		}
	}
	return s
}

// canShare reports whether shared arrays a and b may occupy the same bytes.
func (lt *lifetimes) canShare(a, b *ir.Array) bool {
	x, okx := lt.live[a]
	y, oky := lt.live[b]
	if !okx || !oky {
		return true // one of them is never used
	}
	if x.lo > y.lo {
		x, y = y, x
	}
	if x.hi >= y.lo {
		return false // the lifetimes overlap
	}
	for _, arms := range lt.arms {
		if arms[0].contains(x.lo) && arms[0].contains(x.hi) && arms[1].contains(y.lo) && arms[1].contains(y.hi) {
			return true // no block runs both arms
		}
	}
	if !lt.barrierBetween(x.hi, y.lo, span{x.hi, y.lo}, nil) {
		return false
	}
	for _, c := range lt.controls {
		if c.loop && !c.barrierAtEnd && c.lo < x.lo && y.hi <= c.hi {
			// y's bytes are used again by x in the next iteration.
			outer := c
			if !lt.barrierBetween(y.hi, c.hi+1, span{x.lo, y.hi}, &outer) &&
				!lt.barrierBetween(c.lo, x.lo, span{x.lo, y.hi}, &outer) {
				return false
			}
		}
	}
	return true
}

// barrierBetween reports whether a block-level barrier numbered in (from,
// to) runs whenever the statements of uses run: every control statement
// around the barrier (inside loop, when given) must also be around uses.
func (lt *lifetimes) barrierBetween(from, to int, uses span, loop *control) bool {
	for _, s := range lt.syncs {
		if s <= from || s >= to {
			continue
		}
		always := true
		for _, c := range lt.controls {
			if !c.contains(s) || c.lo == s {
				continue
			}
			if loop != nil && c.lo <= loop.lo {
				continue // the loop itself, or around it
			}
			if !(c.lo < uses.lo && uses.hi <= c.hi) {
				always = false
				break
			}
		}
		if always {
			return true
		}
	}
	return false
}
