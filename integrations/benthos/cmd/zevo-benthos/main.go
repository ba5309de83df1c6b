// Command zevo-benthos is Benthos with zevo's processors (zevo_translate,
// zevo_jq) and Benthos' own inputs, outputs and processors:
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
	service.RunCLI(context.Background())
}
