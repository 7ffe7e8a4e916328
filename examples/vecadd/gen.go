package vecadd

//go:generate go run ../../cmd/obsgen run .
