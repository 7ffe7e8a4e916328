package reduce

//go:generate go run ../../cmd/obsgen run .
