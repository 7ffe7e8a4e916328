package saxpy

// Every test binary of the module accepts -update (see internal/golden);
// .ci/user-module leaves this file out of the module it builds.
import _ "github.com/obsidian-go/obsidian/internal/golden"
