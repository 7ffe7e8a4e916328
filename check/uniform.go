package check

import "github.com/obsidian-go/obsidian/ir"

// variance says how a value may differ between the threads that compute it.
type variance uint8

const (
	uniform   variance = iota // the same in every thread of the block
	perWarp                   // the same within a warp, not across warps
	perThread                 // may differ between the lanes of a warp
)

// dependence holds, for every variable of a kernel, how its value may vary
// between threads: through the thread indices it is computed from, or
// through the thread-dependent control under which it is assigned.
type dependence struct {
	vars map[*ir.Var]variance
}

// analyseDependence computes the variance of k's variables (a fixed point:
// an assignment late in a loop can change a condition early in it).
func analyseDependence(k *ir.Kernel) *dependence {
	d := &dependence{vars: map[*ir.Var]variance{}}
	for {
		w := &dependenceWalk{d: d, depth: map[*ir.Var]int{}}
		w.body(k.Body)
		if !w.changed {
			return d
		}
	}
}

// of returns the variance of an expression.
func (d *dependence) of(e ir.Expr) variance {
	v := uniform
	ir.WalkExpr(e, func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.Special:
			switch e.Kind {
			case ir.ThreadIdx, ir.LaneIdx:
				v = max(v, perThread)
			case ir.WarpIdx:
				v = max(v, perWarp)
			}
		case *ir.Var:
			v = max(v, d.vars[e])
		}
	})
	return v
}

type dependenceWalk struct {
	d       *dependence
	frames  []variance      // the variance of each enclosing control statement
	depth   map[*ir.Var]int // the number of frames around each variable's declaration
	changed bool
}

// set raises the variance of v to at least x, or to that of the control
// frames entered since v's declaration.
func (w *dependenceWalk) set(v *ir.Var, x variance) {
	if v == nil {
		return
	}
	if d, ok := w.depth[v]; ok {
		for _, f := range w.frames[d:] {
			x = max(x, f)
		}
	}
	if x > w.d.vars[v] {
		w.d.vars[v] = x
		w.changed = true
	}
}

func (w *dependenceWalk) declare(v *ir.Var, x variance) {
	if v == nil {
		return
	}
	w.depth[v] = len(w.frames)
	w.set(v, x)
}

func (w *dependenceWalk) in(f variance, body []ir.Stmt) {
	w.frames = append(w.frames, f)
	w.body(body)
	w.frames = w.frames[:len(w.frames)-1]
}

func (w *dependenceWalk) body(body []ir.Stmt) {
	of := w.d.of
	for _, s := range body {
		switch s := s.(type) {
		case *ir.Decl:
			w.declare(s.Var, of(s.Init))
		case *ir.Assign:
			w.set(s.Var, of(s.Value))
		case *ir.Atomic:
			w.set(s.Result, perThread)
		case *ir.Shuffle:
			w.set(s.Result, shuffleVariance(s, of))
		case *ir.Ballot:
			if s.Agree { // each lane's own vote or its complement
				w.set(s.Result, matchVariance(of(s.Pred)))
			} else {
				w.set(s.Result, perWarp)
			}
		case *ir.MatchAny:
			w.set(s.Result, matchVariance(of(s.Value)))
		case *ir.If:
			w.in(of(s.Cond), s.Then)
			w.in(of(s.Cond), s.Else)
		case *ir.While:
			w.in(of(s.Cond), s.Body)
		case *ir.For:
			c := of(s.Count)
			w.frames = append(w.frames, c)
			w.declare(s.Var, c)
			w.body(s.Body)
			w.frames = w.frames[:len(w.frames)-1]
		case *ir.ForAll:
			x := max(forAllVariance(s.Kind), of(s.Count))
			w.frames = append(w.frames, x)
			w.declare(s.Var, x)
			w.body(s.Body)
			w.frames = w.frames[:len(w.frames)-1]
		}
	}
}

// shuffleVariance is the variance of a shuffle's result: a value every lane
// holds comes back unchanged, and a value read from one lane, the same in
// every lane of the warp, is that lane's in all of them.
func shuffleVariance(s *ir.Shuffle, of func(ir.Expr) variance) variance {
	switch value := of(s.Value); {
	case value != perThread:
		return value
	case s.Mode == ir.ShuffleIdx && of(s.Lane) != perThread:
		return perWarp
	}
	return perThread
}

// matchVariance is the variance of a match's result given its value's: a
// value the same in every lane of the warp matches the whole warp.
func matchVariance(value variance) variance {
	if value == perThread {
		return perThread
	}
	return perWarp
}

// forAllVariance is the variance of a ForAll's index.
func forAllVariance(k ir.ForAllKind) variance {
	switch k.Inner() {
	case ir.ThreadLevel:
		return perThread
	case ir.WarpLevel:
		return perWarp
	}
	return uniform
}
