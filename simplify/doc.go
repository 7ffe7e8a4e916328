// Package simplify rewrites expressions into simpler equivalent ones:
// constants folded with the semantics of the operator table, algebraic
// identities applied, shared-array lengths made constants, constant tables
// read at constant indices replaced by their elements. It never changes
// what an expression computes and keeps anything that can fail at run time.
// The front end (dsl, arrays) uses it to recognise constants; codegen uses
// it on whole kernels.
package simplify
