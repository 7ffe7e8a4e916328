// Package proptest sets up gopter property tests the way the module's tests
// share: a seed that is logged and can be replayed, and a number of cases
// that a flag raises for long runs.
package proptest
