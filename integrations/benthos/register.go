package benthos

import "github.com/redpanda-data/benthos/v4/public/service"

// init registers the plugins with Benthos' global environment, which
// importing this package is for.
func init() {
	err := service.RegisterProcessor("zevo_translate", translateSpec(),
		func(conf *service.ParsedConfig, mgr *service.Resources) (service.Processor, error) {
			return newTranslateProc(conf, mgr)
		})
	if err == nil {
		err = service.RegisterProcessor("zevo_jq", jqSpec(),
			func(conf *service.ParsedConfig, mgr *service.Resources) (service.Processor, error) {
				return newJQProc(conf, mgr)
			})
	}
	if err == nil {
		err = service.RegisterBatchScannerCreator("zevo_lines", linesSpec(),
			func(*service.ParsedConfig, *service.Resources) (service.BatchScannerCreator, error) {
				return linesCreator{}, nil
			})
	}
	if err != nil {
		panic(err)
	}
}
