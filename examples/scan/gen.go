package scan

//go:generate go tool obsgen run .
