package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/gamelog"
)

// gamesPath splits kaisen replay's argument FILE#N into the games file
// and the game (-1 when none is named); --game-index N names it too.
func gamesPath(arg string, index int) (path string, game int, err error) {
	path, game = arg, index
	if _, statErr := os.Stat(arg); statErr != nil {
		if i := strings.LastIndexByte(arg, '#'); i > 0 {
			n, convErr := strconv.Atoi(arg[i+1:])
			if convErr != nil || n < 0 {
				return "", 0, usageError("%s: want FILE#N, N a game number from 0", arg)
			}
			if index >= 0 && index != n {
				return "", 0, usageError("%s and --game-index %d name two games", arg, index)
			}
			path, game = arg[:i], n
		}
	}
	if game >= 0 && !gamelog.IsFile(path) {
		return "", 0, usageError("%s is not a file of many games (kaisen match --games-out): no game to pick", path)
	}
	return path, game, nil
}

// runReplayDir is kaisen replay --verify or --json on a directory (one
// written by kaisen match --replays, say): every *.jsonl in it, in name
// order, checked as if named alone. A replay that does not verify is
// reported and the others are still checked; the command then fails.
func runReplayDir(e *env, cmd *cobra.Command, dir string, f *replayFlags) error {
	if !f.verifyOnly && !f.json {
		return usageError("%s is a directory: check its replays with --verify or --json, audit them with --audit, or name one file", dir)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("%s: no replay (*.jsonl) in the directory", dir)
	}
	var failed []string
	for _, p := range paths {
		run := runReplay
		if gamelog.IsFile(p) {
			run = func(e *env, cmd *cobra.Command, p string, f *replayFlags) error {
				return runGamesReplay(e, cmd, p, -1, f)
			}
		}
		if err := run(e, cmd, p, f); err != nil {
			var u *UsageError
			if errors.As(err, &u) {
				return err
			}
			fmt.Fprintf(e.stderr, "kaisen replay: %v\n", err)
			failed = append(failed, filepath.Base(p))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s: %d of %d files do not verify: %s", dir, len(failed), len(paths), strings.Join(failed, ", "))
	}
	if f.json {
		return nil
	}
	_, err = fmt.Fprintf(e.stdout, "%s: %d files, every one verified\n", dir, len(paths))
	return err
}

// runGamesReplay is kaisen replay on a games file (--games-out): game N
// (index >= 0) drawn, verified or written as any replay; without one,
// every game listed or (--verify, --json) checked.
func runGamesReplay(e *env, cmd *cobra.Command, path string, index int, f *replayFlags) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	r, err := gamelog.NewReader(file)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if index < 0 && (f.html != "" || f.audit || cmd.Flags().Changed("turn") || cmd.Flags().Changed("from")) {
		return usageError("%s holds many games: name one with %s#N or --game-index N", path, path)
	}
	for n := 0; ; n++ {
		want := index < 0 && (f.verifyOnly || f.json) || n == index
		g, err := r.Next(want)
		switch {
		case errors.Is(err, io.EOF) && index >= 0:
			return usageError("%s has %d games (0 to %d): no game %d", path, n, n-1, index)
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("%s: %w", path, err)
		}
		label := fmt.Sprintf("%s#%d", path, g.Index)
		switch {
		case want:
			if err := replayGame(e, cmd, label, &g, f); err != nil || index >= 0 {
				return err
			}
		case index >= 0: // a game before the one picked
		default:
			if _, err := fmt.Fprintf(e.stdout, "%s: %s vs %s, %s\n", label, g.P1, g.P2, gameLine(&g)); err != nil {
				return err
			}
		}
	}
}

// gameLine is a game's result in words, from its frame.
func gameLine(g *gamelog.Game) string {
	r := g.Result.Arena()
	out := "draw"
	if r.Adjudicated != "" {
		out += " (adjudicated: " + r.Adjudicated + ")"
	}
	switch {
	case r.P1Won():
		out = "p1 " + g.P1 + " wins"
	case r.P2Won():
		out = "p2 " + g.P2 + " wins"
	}
	s := fmt.Sprintf("p1 in seat %d, seed %d: %s, %d actions", r.P1Seat, r.Seed, out, r.Actions)
	if r.Reason != "" {
		s += " (forfeit: " + r.Reason + ")"
	}
	return s
}

// replayGame runs kaisen replay on game g's replay, written to a
// temporary file; what it prints and its errors name the game label
// (FILE#N) instead.
func replayGame(e *env, cmd *cobra.Command, label string, g *gamelog.Game, f *replayFlags) error {
	tmp, err := os.CreateTemp("", "kaisen-game-*.jsonl")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(g.Replay)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	var out bytes.Buffer
	sub := *e
	sub.stdout = &out
	err = runReplay(&sub, cmd, tmp.Name(), f)
	if _, werr := e.stdout.Write(bytes.ReplaceAll(out.Bytes(), []byte(tmp.Name()), []byte(label))); err == nil {
		err = werr
	}
	if err != nil {
		return &renamedError{err: err, from: tmp.Name(), to: label}
	}
	return nil
}

// renamedError is err with the path from named to in its message.
type renamedError struct {
	err      error
	from, to string
}

func (r *renamedError) Error() string { return strings.ReplaceAll(r.err.Error(), r.from, r.to) }
func (r *renamedError) Unwrap() error { return r.err }
