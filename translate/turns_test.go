package translate

import (
	"strings"
	"testing"
	"time"
)

// decodeTurns times the input's throughput with the decoding in each
// place and keeps it where it was faster: here with a clock that makes
// each window take what the place's speed says, one window in four
// slowed by half (a collection cycle), which the better of two windows
// leaves out.
func TestDecodeTurnsFollowThroughput(t *testing.T) {
	for _, tc := range []struct {
		name string
		// ms a window takes with the decoding on the writing and on the
		// reading goroutine, before and after batch change
		writer, reader [2]time.Duration
		change         uint64
		want           string // the place of each window: w or r
	}{
		{
			name:   "the writing goroutine faster",
			writer: [2]time.Duration{10, 10}, reader: [2]time.Duration{13, 13}, change: 1 << 40,
			// skipped, timed twice; tried on the reader: skipped, timed
			// twice, slower: back, skipped; stays until it tries again
			want: "www" + "rrr" + strings.Repeat("w", 1+turnRetry) + "rrr" + "w",
		},
		{
			name:   "the reading goroutine faster",
			writer: [2]time.Duration{13, 13}, reader: [2]time.Duration{10, 10}, change: 1 << 40,
			want: "www" + strings.Repeat("r", 3+turnRetry-2) + "www" + "r",
		},
		{
			name:   "the input changes",
			writer: [2]time.Duration{10, 14}, reader: [2]time.Duration{13, 11}, change: 20 * turnWindow,
			// faster on the reader when it tries it again
			want: "www" + "rrr" + strings.Repeat("w", 1+turnRetry) + strings.Repeat("r", 1+turnRetry) + "www" + "r",
		},
	} {
		var now time.Duration
		d := &decodeTurns{clock: func() time.Duration { return now }}
		var got strings.Builder
		for seq := uint64(0); got.Len() < len(tc.want); seq++ {
			here := d.here(seq, 1000)
			if seq%turnWindow == 0 {
				if here {
					got.WriteByte('r')
				} else {
					got.WriteByte('w')
				}
			}
			// The batch's time in the place it is decoded in.
			half := 0
			if seq >= tc.change {
				half = 1
			}
			per := tc.writer[half]
			if here {
				per = tc.reader[half]
			}
			if seq/turnWindow%4 == 3 {
				per += per / 2
			}
			now += per * time.Millisecond / turnWindow
		}
		if got.String() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got.String(), tc.want)
		}
	}
}
