package cli

import "os"

// outputNotInput refuses an output file that is also one of the inputs
// (standard input too, for "-" or no FILE): creating it would truncate
// what is still to be read. Files are compared as os.SameFile does, so a
// symlink, a hard link or another spelling of the path counts. flag is
// the output's flag, for the message. Call it before anything is opened
// for writing.
func (e *env) outputNotInput(flag, output string, inputs []string) error {
	if output == "" || output == "-" {
		return nil
	}
	out, err := os.Stat(output)
	if err != nil {
		return nil // nothing there yet, nothing to truncate
	}
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	for _, in := range inputs {
		var fi os.FileInfo
		name := in
		if in == "-" {
			f, ok := e.stdin.(*os.File)
			if !ok {
				continue
			}
			name = "standard input"
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(in)
		}
		if err == nil && os.SameFile(out, fi) {
			return usageErr("%s %s: the output is also an input (%s), which writing it would destroy before it is read", flag, output, name)
		}
	}
	return nil
}
