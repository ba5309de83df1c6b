package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/protocol"
)

func schemaCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "schema",
		Usage:     "print a shipped JSON Schema (draft 2020-12), or list them",
		ArgsUsage: "[NAME]",
		Description: `Without NAME, lists the schemas: the Zero and EvoScientist protocols', then
one per other dialect zevo reads. With NAME (zero@2 or zero, zero@1,
zero-input, evosci, or a dialect's name or alias as the list shows it),
prints that schema, so that clients in any language can validate events
with their own JSON Schema library.

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
				for _, ds := range inspect.DialectSchemas() {
					names := append([]string{ds.Dialect.Name}, ds.Dialect.Aliases...)
					fmt.Fprintf(tw, "%s\t%s\t%s\n", strings.Join(names, ", "), ds.File, ds.Title())
				}
				return tw.Flush()
			case 1:
				name := c.Args().First()
				p, err := protocol.Lookup(name)
				if err == nil {
					_, err = e.stdout.Write(jsonTextOut(e.stdout, p.Schema()))
					return err
				}
				if ds, ok := inspect.LookupDialectSchema(name); ok {
					_, err = e.stdout.Write(jsonTextOut(e.stdout, ds.Text))
					return err
				}
				var names []string
				for _, ds := range inspect.DialectSchemas() {
					names = append(names, ds.Dialect.Name)
				}
				return usageErr("schema: %v, or a dialect: %s", err, strings.Join(names, ", "))
			}
			return usageErr("schema takes at most one NAME (see zevo schema --help)")
		},
	}
}
