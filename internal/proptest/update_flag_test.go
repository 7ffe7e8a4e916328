package proptest

import _ "github.com/obsidian-go/obsidian/internal/golden" // every test binary accepts -update
