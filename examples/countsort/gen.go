package countsort

//go:generate go tool obsgen run .
