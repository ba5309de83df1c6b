package zero

import (
	_ "embed"
	"sync"

	"github.com/tidwall/gjson"
)

// toEvosci is the mapping table from Zero into EvoScientist.
//
//go:embed to-evosci.json
var toEvosci []byte

//go:embed versions.json
var versionsFile []byte

// Renames are what tells version 1's lines from version 2's
// (versions.json).
type Renames struct {
	Fields     map[string]string // v1 field → v2 field
	BlockCodes map[string]string // v1 block code → v2 code
	V2Only     map[string]bool   // event types v1 does not have
	block      string            // v1's name of v2's block
}

// V1Renames is versions.json, read the first time it is asked for.
var V1Renames = sync.OnceValue(func() *Renames {
	r := &Renames{Fields: map[string]string{}, BlockCodes: map[string]string{}, V2Only: map[string]bool{}}
	v := gjson.ParseBytes(versionsFile)
	v.Get("fields").ForEach(func(k, val gjson.Result) bool { r.Fields[k.Str] = val.Str; return true })
	v.Get("blockCodes").ForEach(func(k, val gjson.Result) bool { r.BlockCodes[k.Str] = val.Str; return true })
	v.Get("v2Only").ForEach(func(_, val gjson.Result) bool { r.V2Only[val.Str] = true; return true })
	for v1, v2 := range r.Fields {
		if v2 == "block" {
			r.block = v1
		}
	}
	return r
})
