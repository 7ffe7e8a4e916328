package dsl

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
)

// A mistake made with a builder, a variable or an array must be reported to
// the kernel that would otherwise be missing a statement: the kernel whose
// body is being recorded when the mistake is made, which need not be the
// kernel the object belongs to (a Var of a kernel built earlier, Set in the
// body of another kernel). Go has no goroutine-local state, so the kernels
// whose bodies are being recorded are kept here per goroutine, each
// goroutine named by the id its stack trace starts with. Only Kernel.Body
// and the reporting of mistakes look them up; recording a correct program
// costs one look-up per kernel.
var recordings = struct {
	sync.Mutex
	by map[uint64][]*Kernel // innermost last
}{by: map[uint64][]*Kernel{}}

// goroutineID returns the id of the calling goroutine, from the header of
// its stack trace ("goroutine 18 [running]:").
func goroutineID() uint64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	fields := bytes.Fields(buf[:n])
	if len(fields) < 2 {
		return 0
	}
	id, _ := strconv.ParseUint(string(fields[1]), 10, 64)
	return id
}

// startRecording notes that the calling goroutine records k's body until
// the returned function is called. A kernel whose body was being recorded
// by the goroutine is suspended meanwhile: its builders, variables and
// arrays may not be used in k's body.
func (k *Kernel) startRecording() (stop func()) {
	g := goroutineID()
	recordings.Lock()
	stack := recordings.by[g]
	var outer *Kernel
	if len(stack) > 0 {
		outer = stack[len(stack)-1]
		outer.inner = k
	}
	recordings.by[g] = append(stack, k)
	recordings.Unlock()
	return func() {
		recordings.Lock()
		defer recordings.Unlock()
		stack := recordings.by[g]
		if len(stack) <= 1 {
			delete(recordings.by, g)
		} else {
			recordings.by[g] = stack[:len(stack)-1]
		}
		if outer != nil {
			outer.inner = nil
		}
	}
}

// recording returns the kernel whose body the calling goroutine is
// recording now (the innermost), or nil.
func recording() *Kernel {
	g := goroutineID()
	recordings.Lock()
	defer recordings.Unlock()
	if stack := recordings.by[g]; len(stack) > 0 {
		return stack[len(stack)-1]
	}
	return nil
}

// reportTo returns the kernel a mistake with an object of owner (nil: no
// kernel) is reported to: the kernel whose body the calling goroutine is
// recording, which would miss a statement; otherwise owner if it is not
// built yet. It returns nil when neither exists: the call is then outside
// every kernel's body and changes no kernel.
func reportTo(owner *Kernel) *Kernel {
	if k := recording(); k != nil {
		return k
	}
	if owner != nil && !owner.built {
		return owner
	}
	return nil
}
