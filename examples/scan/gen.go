package scan

//go:generate go run ../../cmd/obsgen run .
