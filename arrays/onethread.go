package arrays

import "github.com/obsidian-go/obsidian/dsl"

// OneThread returns, in every thread of block b, the value that f computes
// in one thread of it, shared through a word of shared memory: a barrier
// before the word is written (threads of the block may still be reading
// it, where OneThread runs in a loop) and one after. It is for a value
// that every thread would otherwise compute alike from the same loads,
// paying its instructions once per block instead of once per warp, and for
// work that must happen once per block, such as taking a ticket from a
// counter or counting the blocks that have finished.
func OneThread[T dsl.Scalar](b *dsl.Block, f func(t *dsl.Thread) dsl.Exp[T]) dsl.Exp[T] {
	shared := dsl.Shared[T](b, 1)
	b.Sync()
	b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { shared.Store(t, dsl.N(0), f(t)) })
	b.Sync()
	return dsl.Let(b, shared.At(dsl.N(0))).Exp
}
