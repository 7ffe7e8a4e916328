package networks_test

import _ "github.com/obsidian-go/obsidian/internal/golden"
