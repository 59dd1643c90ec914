package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// TestHumanSeatCommands: at the placement prompt "help" shows how to
// place (not "not a number"); "resign" or "quit" gives up the game, and
// in a series the series stops with that reason; a series whose input
// runs out says so plainly. Every game and series.
func TestHumanSeatCommands(t *testing.T) {
	tests := []struct {
		name, input string
		args        []string
		want        []string
		notWant     []string
	}{
		{"help at the placement", "help\nr\nresign\n", []string{"--against", "random"},
			[]string{"placement> board 5x5", "give up: you lose this game", "resigning: you lose this game", "you resigned"},
			[]string{"not a number", "not a placement"}},
		{"quit at a turn ends the series", "r\nquit\n", []string{"--against", "random", "-c", "3"},
			[]string{"resigning: you lose this game", "the series stops after game 1 of 3: you resigned", "you against random, 1 games: won 0, drew 0, lost 1"},
			[]string{"== game 2 of 3", "invalid placement"}},
		{"resign at the placement", "resign\n", []string{"--against", "random", "-c", "2"},
			[]string{"resigning", "the series stops after game 1 of 2: you resigned"},
			[]string{"== game 2 of 2"}},
		{"the input runs out in a series", "r\n", []string{"--against", "random", "-c", "2"},
			[]string{"the series stops after game 1 of 2: your input ended"},
			[]string{"invalid placement", "no game: seat", "== game 2 of 2"}},
		{"battleship resign stops the series", "r\nresign\n", []string{"--game", "battleship", "--against", "bs-random", "-c", "2"},
			[]string{"resigning: you lose this game", "you lose: you resigned (", "the series stops after game 1 of 2: you resigned"},
			[]string{"== game 2 of 2", "you shoot A1 again", "the enemy sank your fleet"}},
		{"abilities resign ends the game at once", "r\nresign\n", []string{"--game", "abilities", "--against", "ab-random"},
			[]string{"you lose: you resigned ("}, []string{"the enemy sank your fleet"}},
		{"submarine: the end of the input is the reason", "r\n", []string{"--against", "random"},
			[]string{"you lose after 1 actions: your input ended, which resigns"}, nil},
		{"battleship help at the placement", "?\nr\nq\n", []string{"--game", "battleship", "--against", "bs-random"},
			[]string{"placement> board 10x10", "give up: you lose this game"},
			[]string{"refused"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"play", "--human", "--seed", "1", "--replays", t.TempDir()}, tt.args...)
			code, stdout, stderr := humanRun(t, tt.input, args...)
			require.Equal(t, 0, code, stderr)
			for _, w := range tt.want {
				require.Contains(t, stdout, w)
			}
			for _, w := range tt.notWant {
				require.NotContains(t, stdout, w)
			}
		})
	}
}

// TestPlayHelpHidesDeprecatedGames: kaisen play --help never offers the
// deprecated --games (its series are -c N).
func TestPlayHelpHidesDeprecatedGames(t *testing.T) {
	code, stdout, stderr := humanRun(t, "", "play", "--help")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stdout, "--games")
	require.Contains(t, stdout, "-c 10")
}

// TestHumanNoServerHintsAgainst: --human with nothing listening says how
// to play without a server.
func TestHumanNoServerHintsAgainst(t *testing.T) {
	code, _, stderr := humanRun(t, "", "play", "--human", "--addr", "127.0.0.1:1", "--seed", "1")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "connection refused")
	require.Contains(t, stderr, "--against")
	require.True(t, strings.Contains(stderr, "kaisen serve"), stderr)
}

// waitingInput is a person who types nothing until the server has ended
// the game (its result is logged), then types lines.
type waitingInput struct {
	t       *testing.T
	results func() []server.Result
	after   int // type once the result log has this many games
	lines   *strings.Reader
	waited  bool
}

func (w *waitingInput) Read(p []byte) (int, error) {
	if !w.waited {
		w.waited = true
		playResults(w.t, w.results, w.after)
	}
	return w.lines.Read(p)
}

// TestHumanLateOnABotServer: a person too slow for a server for bots is
// told why the game was lost (the placement, an action) and the exit
// status is 1, not a bare "you lose" with 0.
func TestHumanLateOnABotServer(t *testing.T) {
	tests := []struct {
		name  string
		lines string
		lim   func(*server.Limits)
		want  string
	}{
		{"placement", "r\n", func(l *server.Limits) { l.HandshakeTimeout = 100 * time.Millisecond }, "game 1: lost before it started: the server did not take your placement in time"},
		{"action", "a 0 0\n" + humanScript(50)[2:], func(l *server.Limits) { l.ActionTimeout = 100 * time.Millisecond }, "the server refused your attack: you forfeit (most likely your time for it ran out)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := servertest.Config(t, 7, server.ListenerConfig{Opponent: "random"})
			tt.lim(&cfg.Limits)
			s := servertest.Start(t, cfg)
			results := func() []server.Result { return s.Results(t) }
			in := &waitingInput{t: t, results: results, after: 1, lines: strings.NewReader(tt.lines)}
			var src io.Reader = in
			if tt.name == "action" { // place at once, then wait
				src = io.MultiReader(strings.NewReader("r\n"), in)
			}
			var out, errb bytes.Buffer
			code := Run(context.Background(), []string{"play", "--human", "--addr", s.Addr(0), "--seed", "2"}, src, &out, &errb)
			require.Contains(t, out.String(), "you lose")
			require.Contains(t, out.String()+errb.String(), tt.want)
			if tt.name == "placement" {
				require.Equal(t, 1, code, out.String())
				require.Contains(t, errb.String(), "kaisen serve --humans")
			}
		})
	}
}

// TestHumanTurnTime: with --turn-time a person on a server sees the time
// left at every prompt; --turn-time with --against (no clock) is refused.
func TestHumanTurnTime(t *testing.T) {
	addr, _ := playServer(t, server.ListenerConfig{Opponent: "random"})
	code, stdout, stderr := humanRun(t, "r\nresign\n", "play", "--human", "--addr", addr, "--seed", "2", "--turn-time", "10m")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `placement \(\d+m\d+s left\)> `, stdout)
	require.Regexp(t, `your move \(\d+m\d+s left\)> `, stdout)
	code, _, stderr = humanRun(t, "", "play", "--human", "--against", "random", "--turn-time", "10m", "--seed", "1")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "--turn-time is the time per action of a server")
}
