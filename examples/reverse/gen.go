package reverse

//go:generate go run ../../cmd/obsgen run .
