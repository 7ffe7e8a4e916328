package check

// Verifications returns the number of Verify calls so far.
func Verifications() int64 { return verifications.Load() }
