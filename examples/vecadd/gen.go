package vecadd

//go:generate go tool obsgen run .
