// Command zevo translates, filters and inspects AI coding agents' event
// streams (their stream-json).
package main

import (
	"os"

	"github.com/zevo/zevo/cli"
)

func main() {
	os.Exit(cli.Main())
}
