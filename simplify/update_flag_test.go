package simplify

// Every test binary of the module accepts -update (see internal/golden).
import _ "github.com/obsidian-go/obsidian/internal/golden"
