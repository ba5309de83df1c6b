//go:build !unix

package cli

import "os"

// ownFile is f: only Unix has the SIGPIPE that ownfile_unix.go avoids.
func ownFile(f *os.File) *os.File { return f }
