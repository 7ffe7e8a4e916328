package reverse

//go:generate go tool obsgen run .
