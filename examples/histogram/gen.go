package histogram

//go:generate go run ../../cmd/obsgen run .
