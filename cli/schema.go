package cli

import (
	"fmt"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/schemas"
)

func schemaCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "schema",
		Usage:     "print a shipped JSON Schema (draft 2020-12), or list them",
		ArgsUsage: "[NAME]",
		Description: `Without NAME, lists the schemas. With NAME (zero, zero@1, zero-input or
evosci), prints that schema, so that clients in any language can validate
events with their own JSON Schema library.

Examples:
   zevo schema
   zevo schema zero > zero-v2.schema.json
   zevo schema evosci | jq '.["$defs"] | keys'`,
		Action: func(c *ucli.Context) error {
			switch c.NArg() {
			case 0:
				tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
				for _, s := range schemas.All {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.File, s.Title)
				}
				return tw.Flush()
			case 1:
				s, err := schemas.Lookup(c.Args().First())
				if err != nil {
					return usageErr("schema: %v", err)
				}
				_, err = e.stdout.Write(jsonTextOut(e.stdout, s.Bytes()))
				return err
			}
			return usageErr("schema takes at most one NAME (see zevo schema --help)")
		},
	}
}
