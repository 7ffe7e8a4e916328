package dsl

// SetCallerChunk makes the DSL read the stack n frames at a time when it
// looks for the user's line, and returns what restores the default.
func SetCallerChunk(n int) (restore func()) {
	old := callerChunk
	callerChunk = n
	return func() { callerChunk = old }
}

// MaxCallerChunk is the most frames the DSL reads at a time.
const MaxCallerChunk = maxCallerChunk
