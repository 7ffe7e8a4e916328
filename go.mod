module github.com/obsidian-go/obsidian

go 1.26.8

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/ebitengine/purego v0.11.3 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
)
