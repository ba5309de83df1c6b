package inspect

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// clipText keeps the start of a text up to a number of bytes and lines and
// counts the rest, so a huge output costs no more memory than its clip.
type clipText struct {
	buf                []byte
	maxBytes, maxLines int // 0: no limit
	lines              int // newlines kept
	total, totalLines  int64
	stopped            bool
}

func newClip(maxBytes, maxLines int) clipText {
	return clipText{maxBytes: maxBytes, maxLines: maxLines}
}

func (c *clipText) add(s string) {
	c.total += int64(len(s))
	c.totalLines += int64(strings.Count(s, "\n"))
	if c.stopped {
		return
	}
	keep := s
	if c.maxBytes > 0 && len(c.buf)+len(keep) > c.maxBytes {
		n := c.maxBytes - len(c.buf)
		for n > 0 && !utf8.RuneStart(keep[n]) {
			n--
		}
		keep = keep[:n]
		c.stopped = true
	}
	if c.maxLines > 0 {
		for i := 0; i < len(keep); i++ {
			if keep[i] == '\n' {
				c.lines++
				if c.lines >= c.maxLines {
					keep = keep[:i+1]
					c.stopped = true
					break
				}
			}
		}
	}
	c.buf = append(c.buf, keep...)
}

func (c *clipText) clipped() bool { return int64(len(c.buf)) < c.total }

// text is what is kept, without a trailing line end.
func (c *clipText) text() string { return strings.TrimRight(string(c.buf), "\r\n") }

// note says how much was left out ("" when nothing was).
func (c *clipText) note() string {
	if !c.clipped() {
		return ""
	}
	lines := c.totalLines
	if c.total > 0 && !strings.HasSuffix(string(c.buf), "\n") || c.total == 0 {
		lines++ // a last line without a line end
	}
	return fmt.Sprintf("clipped: %s of %s shown (%d of %d lines); --full shows all",
		byteSize(int64(len(c.buf))), byteSize(c.total), strings.Count(c.text(), "\n")+1, lines)
}

func (c *clipText) reset() {
	c.buf = c.buf[:0]
	c.lines, c.total, c.totalLines, c.stopped = 0, 0, 0, false
}

// byteSize writes n bytes for people: 512 B, 4.0 KiB, 1.2 MiB.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
