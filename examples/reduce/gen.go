package reduce

//go:generate go tool obsgen run .
