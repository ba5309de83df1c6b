// Command zevo-benthos is Benthos with zevo's processors (zevo_translate,
// zevo_jq), its zevo_lines scanner, and Benthos' own inputs, outputs and
// processors:
//
//	zevo-benthos -c config.yaml
package main

import (
	"context"

	_ "github.com/redpanda-data/benthos/v4/public/components/io"
	_ "github.com/redpanda-data/benthos/v4/public/components/pure"
	"github.com/redpanda-data/benthos/v4/public/service"
	_ "github.com/zevo/zevo/integrations/benthos"
)

func main() {
	service.RunCLI(context.Background(), service.CLIOptSetMainSchemaFrom(schema))
}

// schema is Benthos' config schema with two other defaults. One pipeline
// thread (Benthos' default is one per CPU): zevo_translate must see each
// stream's messages in order, and threads take messages in turn but may
// process them in any order. The HTTP server (metrics, health) on
// localhost only: exposing it is a choice to make in the config.
func schema() *service.ConfigSchema {
	s := service.GlobalEnvironment().FullConfigSchema("", "")
	s.SetFieldDefault(1, "pipeline", "threads")
	s.SetFieldDefault("127.0.0.1:4195", "http", "address")
	return s
}
