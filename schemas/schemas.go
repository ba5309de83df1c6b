// Package schemas ships zevo's JSON Schemas (draft 2020-12) of the streams
// it reads, embedded so the binary can print them and validate checks
// lines against them: the Zero and EvoScientist protocols' (package
// protocol says which file is whose). Every other dialect's schema is in
// its folder under dialects/ (event.Dialect's Schema).
package schemas

import "embed"

//go:embed *.schema.json
var files embed.FS

// Bytes returns the text of the shipped schema file (a name in this
// directory). Package protocol says which file belongs to which protocol.
func Bytes(file string) []byte {
	b, err := files.ReadFile(file)
	if err != nil {
		panic("schemas: " + file + " is not embedded") // a build defect, not an input error
	}
	return b
}

// URL is the $id of the schema file, by which one schema may refer to another.
func URL(file string) string { return "https://github.com/zevo/zevo/schemas/" + file }
