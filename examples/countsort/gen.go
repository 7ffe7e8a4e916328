package countsort

//go:generate go run ../../cmd/obsgen run .
