package hygiene

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The channels a Capture holds.
const (
	ChannelWire     = "wire"     // the lines the seat receives from the TCP server
	ChannelLog      = "log"      // the server's log records at level INFO and above
	ChannelPages    = "pages"    // the spectator's web pages, fetched during the game
	ChannelSSE      = "sse"      // the spectator's server-sent event stream of the game
	ChannelTerminal = "terminal" // the terminal seat's output
)

// Capture is what one game showed on each channel, one entry per line,
// normalised.
type Capture map[string][]string

// Add appends the lines of text to channel ch.
func (c Capture) Add(ch, text string) {
	c[ch] = append(c[ch], strings.Split(strings.TrimSuffix(text, "\n"), "\n")...)
}

// Compare returns nil when a and b are identical on every channel; else an
// error naming each channel that differs, with the first differing line
// and some context (- for a, + for b).
func Compare(a, b Capture) error {
	chans := map[string]bool{}
	for ch := range a {
		chans[ch] = true
	}
	for ch := range b {
		chans[ch] = true
	}
	var names []string
	for ch := range chans {
		names = append(names, ch)
	}
	slices.Sort(names)
	var sb strings.Builder
	for _, ch := range names {
		if d := Diff(a[ch], b[ch]); d != "" {
			fmt.Fprintf(&sb, "channel %s differs:\n%s", ch, d)
		}
	}
	if sb.Len() == 0 {
		return nil
	}
	return fmt.Errorf("hygiene: the twins differ:\n%s", sb.String())
}

// Diff is "" when a and b are equal, else the lines around their first
// difference: common lines with two spaces, a's with "- ", b's with "+ ".
func Diff(a, b []string) string {
	if slices.Equal(a, b) {
		return ""
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	ea, eb := len(a), len(b) // common tail
	for ea > i && eb > i && a[ea-1] == b[eb-1] {
		ea--
		eb--
	}
	const context, most = 2, 6
	var sb strings.Builder
	fmt.Fprintf(&sb, "  (line %d of %d / %d)\n", i+1, len(a), len(b))
	for _, l := range a[max(0, i-context):i] {
		fmt.Fprintf(&sb, "    %s\n", clip(l))
	}
	for _, l := range a[i:min(ea, i+most)] {
		fmt.Fprintf(&sb, "  - %s\n", clip(l))
	}
	for _, l := range b[i:min(eb, i+most)] {
		fmt.Fprintf(&sb, "  + %s\n", clip(l))
	}
	return sb.String()
}

func clip(s string) string {
	const n = 400
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

var (
	// A run id: the server's start second and 64 bits from crypto/rand.
	runIDPattern = regexp.MustCompile(`\d{8}T\d{6}Z-[0-9a-f]{16}`)
	// A loopback address with its port.
	portPattern = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	// The time left to the seat to act, as the live view's turn event
	// reads it off the clock when it is sent.
	leftPattern = regexp.MustCompile(`"left_ms":\d+`)
	// A wall-clock time of the games list (started, ended) and a duration
	// cell of it (took, running for): clock readings.
	clockPattern    = regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}`)
	durationPattern = regexp.MustCompile(`<td>(\d+h)?(\d+m)?[\d.]+(ns|µs|ms|s)</td>`)
)

// Normalize replaces in s what differs between two runs of the same game
// but says nothing about the game, and nothing else:
//
//   - the server's run id (its start second and 64 bits from crypto/rand,
//     the prefix of every game id) becomes RUNID;
//   - the port of a loopback address (the kernel's choice for the
//     listener and for each client) becomes PORT;
//   - each of dirs (the run's temporary directory, holding the result log
//     and the replays) becomes DIR;
//   - the milliseconds left to the seat to act in the live view's turn
//     events ("left_ms") become MS: a clock reading (the limit itself,
//     the same in both runs, is in the listener's settings);
//   - the games list's times (started, ended: YYYY-MM-DD hh:mm:ss) become
//     TIME and its duration cells (took, running for) DURATION: the wall
//     clock, which both seats and every spectator read alike.
//
// The log handler drops the time of each record (ServerOptions); the
// other durations printed are configured limits (the same in both runs),
// not measured ones.
func Normalize(s string, dirs ...string) string {
	for _, d := range dirs {
		if d != "" {
			s = strings.ReplaceAll(s, d, "DIR")
		}
	}
	s = runIDPattern.ReplaceAllString(s, "RUNID")
	s = leftPattern.ReplaceAllString(s, `"left_ms":MS`)
	s = clockPattern.ReplaceAllString(s, "TIME")
	s = durationPattern.ReplaceAllString(s, "<td>DURATION</td>")
	return portPattern.ReplaceAllString(s, "127.0.0.1:PORT")
}
