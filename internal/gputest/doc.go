// Package gputest opens the GPU for the tests that need one, and skips
// them, saying why, on a machine without one.
package gputest
