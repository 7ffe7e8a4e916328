// Package readme holds the test that keeps the repository's README.md
// true: every Go snippet in it must be, character for character, code of
// the repository that the tests compile and run (an Example's body, the
// declarations of a file, or a whole file). It has no code of its own.
package readme
