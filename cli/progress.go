package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress is stats' progress bar on a terminal: one line, redrawn at
// most every 100 ms as the files' bytes are read (by several goroutines),
// cleared at the end.
type progress struct {
	w     io.Writer
	total int64
	now   func() time.Time

	mu    sync.Mutex
	read  int64
	drawn time.Time // when the line was last drawn
	width int       // of the line on the terminal, 0 when none is
}

func newProgress(w io.Writer, total int64) *progress {
	return &progress{w: w, total: total, now: time.Now}
}

// Add counts n more bytes read.
func (p *progress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.read += int64(n)
	if now := p.now(); p.width == 0 || now.Sub(p.drawn) >= 100*time.Millisecond {
		p.drawn = now
		p.draw()
	}
}

func (p *progress) draw() {
	const cells = 30
	done := min(p.read, p.total)
	full := int(cells * done / p.total)
	line := fmt.Sprintf("reading %3d%% [%s%s] %s/%s MiB", 100*done/p.total,
		strings.Repeat("#", full), strings.Repeat(" ", cells-full), mib(done), mib(p.total))
	fmt.Fprintf(p.w, "\r%s", line)
	p.width = len(line)
}

// mib is n bytes in MiB, one decimal.
func mib(n int64) string { return fmt.Sprintf("%.1f", float64(n)/(1<<20)) }

// Finish clears the line.
func (p *progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}
