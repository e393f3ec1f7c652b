// Command gen writes the web app's copy of the pre-flight rules (preflight.TSPath) from the Go
// rules. Run it from the repository root: go run ./modules/creatives/internal/preflight/gen
package main

import (
	"fmt"
	"os"

	"marquee/modules/creatives/internal/preflight"
)

func main() {
	out := append(preflight.TypeScript(), '\n')
	if err := os.WriteFile(preflight.TSPath, out, 0o644); err != nil { // #nosec G306 -- a source file of the repository
		fmt.Fprintln(os.Stderr, "gen-preflight:", err)
		os.Exit(1)
	}
}
