module github.com/obsidian-go/obsidian

go 1.26.8
