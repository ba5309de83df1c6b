package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/protocol"
)

func schemaCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "schema",
		Usage:     "print a shipped JSON Schema (draft 2020-12), or list them",
		ArgsUsage: "[NAME]",
		Description: `Without NAME, lists the schemas. With NAME (zero@2 or zero, zero@1,
zero-input, evosci), prints that schema, so that clients in any language can validate
events with their own JSON Schema library.

Examples:
   zevo schema
   zevo schema zero > zero-v2.schema.json
   zevo schema evosci | jq '.["$defs"] | keys'`,
		Action: func(c *ucli.Context) error {
			switch c.NArg() {
			case 0:
				tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
				for _, p := range protocol.All {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", strings.Join(p.Names(), ", "), p.SchemaFile, p.Title)
				}
				return tw.Flush()
			case 1:
				p, err := protocol.Lookup(c.Args().First())
				if err != nil {
					return usageErr("schema: %v", err)
				}
				_, err = e.stdout.Write(jsonTextOut(e.stdout, p.Schema()))
				return err
			}
			return usageErr("schema takes at most one NAME (see zevo schema --help)")
		},
	}
}
