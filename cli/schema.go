package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
)

func schemaCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "schema",
		Usage:     "print a shipped JSON Schema (draft 2020-12), or list them",
		ArgsUsage: "[NAME]",
		Description: `Without NAME, lists the schemas of the dialects zevo reads, each
dialect's in its folder (dialects/NAME): a schema's names, its file and
its title. With NAME (a schema's name or alias as the list shows it, or a
dialect's name, for its first schema), prints that schema, so that
clients in any language can validate events with their own JSON Schema
library.

Examples:
   zevo schema
   zevo schema NAME > NAME.schema.json
   zevo schema NAME | jq '.["$defs"] | keys'`,
		Action: func(c *ucli.Context) error {
			switch c.NArg() {
			case 0:
				tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
				for _, ds := range inspect.Schemas() {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", strings.Join(ds.Names(), ", "), ds.File, ds.ShownTitle())
				}
				return tw.Flush()
			case 1:
				ds, err := inspect.LookupSchema(c.Args().First())
				if err != nil {
					return usageErr("schema: %v", err)
				}
				_, err = e.stdout.Write(jsonTextOut(e.stdout, ds.Text))
				return err
			}
			return usageErr("schema takes at most one NAME (see zevo schema --help)")
		},
	}
}
