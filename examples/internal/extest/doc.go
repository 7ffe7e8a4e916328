// Package extest holds what the examples' tests share: every test runs on
// the CPU evaluator and on GPU 0 (skipped, saying why, where there is
// none), with random data from a logged seed that can be replayed.
package extest
