package protocol

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// SeriesRound is the greeting of game n (from 1) on the series server.
func SeriesRound(n int) string { return "round" + strconv.Itoa(n) + seriesSuffix }

// ParseGreeting recognises a server's first line of a game: the classic
// greeting (round 0), a series greeting "roundN. please send me initial
// state." (Classic, round N >= 1) or the submarine-py greeting (round 0).
// Anything else is a *ProtocolError wrapping ErrUnexpected.
func ParseGreeting(line []byte) (d Dialect, round int, err error) {
	s := string(bytes.TrimSpace(line))
	switch s {
	case ClassicGreeting:
		return Classic, 0, nil
	case pyGreeting:
		return SubmarinePy, 0, nil
	}
	if rest, ok := strings.CutPrefix(s, "round"); ok {
		if num, ok := strings.CutSuffix(rest, seriesSuffix); ok && isIntLiteral([]byte(num)) && num[0] != '-' {
			if n, err := strconv.Atoi(num); err == nil && n >= 1 {
				return Classic, n, nil
			}
		}
	}
	return 0, 0, NewProtocolError(line, fmt.Errorf("%w: want a greeting (%q, %q or %q)", ErrUnexpected, ClassicGreeting, SeriesRound(1), pyGreeting))
}

// End is how a game ended for one side.
type End uint8

// Game ends.
const (
	NotEnd End = iota // the line is not an end line
	EndWin
	EndLose
	EndDraw
)

func (e End) String() string {
	switch e {
	case EndWin:
		return "win"
	case EndLose:
		return "lose"
	case EndDraw:
		return "draw"
	}
	return "none"
}

// ParseEnd recognises a game's end line: "you win", "you lose", "even" or
// "draw", each optionally followed by "." (last set true), which the series
// server prints after the last game of a series.
func ParseEnd(line []byte) (e End, last bool) {
	s := string(bytes.TrimSpace(line))
	s, last = strings.CutSuffix(s, ".")
	switch s {
	case YouWin:
		return EndWin, last
	case YouLose:
		return EndLose, last
	case "even", "draw":
		return EndDraw, last
	}
	return NotEnd, false
}

// EndLine is the line d sends for end e; last adds the series' final ".".
func (d Dialect) EndLine(e End, last bool) string {
	var s string
	switch e {
	case EndWin:
		s = YouWin
	case EndLose:
		s = YouLose
	case EndDraw:
		s = d.DrawLine()
	default:
		return ""
	}
	if last {
		s += "."
	}
	return s
}

// SeriesRule is the line of 20 '#' in the series trailer.
const SeriesRule = "####################"

// Tally is a series' score from one side: the trailer's "win W", "even E",
// "lose L".
type Tally struct {
	Win, Even, Lose int
}

// SeriesTrailer is what the series server sends one side after the last
// game's end line: a blank line, SeriesRule, "win W", "even E", "lose L".
func SeriesTrailer(t Tally) []string {
	return []string{"", SeriesRule, "win " + strconv.Itoa(t.Win), "even " + strconv.Itoa(t.Even), "lose " + strconv.Itoa(t.Lose)}
}

// ParseTrailer parses the five trailer lines of SeriesTrailer. Any
// deviation is a *ProtocolError quoting the first bad line.
func ParseTrailer(lines [][]byte) (Tally, error) {
	var t Tally
	if len(lines) != 5 {
		return t, fmt.Errorf("%w: series trailer has %d lines, want 5", ErrUnexpected, len(lines))
	}
	if len(bytes.TrimSpace(lines[0])) != 0 {
		return t, NewProtocolError(lines[0], fmt.Errorf("%w: want the blank line of the series trailer", ErrUnexpected))
	}
	if string(bytes.TrimSpace(lines[1])) != SeriesRule {
		return t, NewProtocolError(lines[1], fmt.Errorf("%w: want %q", ErrUnexpected, SeriesRule))
	}
	for k, f := range []struct {
		key string
		dst *int
	}{{"win", &t.Win}, {"even", &t.Even}, {"lose", &t.Lose}} {
		line := lines[2+k]
		num, ok := strings.CutPrefix(string(bytes.TrimSpace(line)), f.key+" ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 0 || !isIntLiteral([]byte(num)) {
			return Tally{}, NewProtocolError(line, fmt.Errorf("%w: want %q followed by a count", ErrUnexpected, f.key))
		}
		*f.dst = n
	}
	return t, nil
}
