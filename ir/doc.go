// Package ir is the intermediate representation shared by every stage of the
// library: the dsl and arrays packages build it, codegen verifies, simplifies
// and prints it as CUDA C, internal/eval interprets it on the CPU, and runtime
// launches it on a GPU.
//
// The IR is plain data: exported structs behind small sealed interfaces
// (Expr and Stmt), with no closures. Identity matters for two kinds of node:
// a *Var and an *Array are the same variable or array wherever the same
// pointer appears. Every statement, and every expression that can be wrong
// on its own (a Load, an Invalid), carries the position of the user's Go
// code that built it.
//
// A kernel body is a Grid-level program. Control flow at Grid, Block and Warp
// level is uniform (the same for every thread of the grid, block or warp);
// thread-dependent code lives only in the bodies of ForAll statements whose
// body level is Thread. Barriers (Sync) are statements of Block or Warp level
// only, which is what lets the evaluator run a ForAll as a plain loop.
package ir
