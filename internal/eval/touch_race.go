//go:build race

package eval

// touchesGlobal says touchGlobal reads cells ahead of a warp's accesses:
// not in builds with the race detector, for which those reads race with
// other workers' writes.
const touchesGlobal = false
