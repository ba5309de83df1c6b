package cli

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// TestProgressDrawsThrottledAndClears: the line shows the share read, is
// redrawn at most every 100 ms, and is blanked out by Finish.
func TestProgressDrawsThrottledAndClears(t *testing.T) {
	var out strings.Builder
	at := time.Unix(0, 0)
	p := newProgress(&out, 200<<20)
	p.now = func() time.Time { return at }
	p.Add(50 << 20)
	if got := out.String(); got != "\rreading  25% [#######                       ] 50.0/200.0 MiB" {
		t.Fatalf("first line %q", got)
	}
	p.Add(50 << 20) // within 100 ms: not drawn
	if strings.Count(out.String(), "\r") != 1 {
		t.Fatalf("drawn again within 100 ms: %q", out.String())
	}
	at = at.Add(100 * time.Millisecond)
	p.Add(150 << 20) // past the total (a file grew): at most 100%
	last := out.String()[strings.LastIndex(out.String(), "\r"):]
	if last != "\rreading 100% [##############################] 200.0/200.0 MiB" {
		t.Fatalf("line %q", last)
	}
	out.Reset()
	p.Finish()
	if want := "\r" + strings.Repeat(" ", len(last)-1) + "\r"; out.String() != want {
		t.Fatalf("finish wrote %q, want %q", out.String(), want)
	}
	out.Reset()
	p.Finish()
	if out.Len() != 0 {
		t.Fatalf("second finish wrote %q", out.String())
	}
}

// TestProgressCountsConcurrentReads: files are read by several goroutines.
func TestProgressCountsConcurrentReads(t *testing.T) {
	var out strings.Builder
	p := newProgress(&out, 1<<20)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				p.Add(1)
			}
		}()
	}
	wg.Wait()
	if p.read != 8000 {
		t.Fatalf("read %d, want 8000", p.read)
	}
}
