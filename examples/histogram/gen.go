package histogram

//go:generate go tool obsgen run .
