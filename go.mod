module github.com/zevo/zevo

go 1.24.0

require (
	github.com/itchyny/gojq v0.12.20
	github.com/tidwall/gjson v1.20.2
	github.com/urfave/cli/v2 v2.27.7
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1 // indirect
)
