package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/gamelog"
)

// gamesOutFlags are --games-out and --recover of match, tournament and
// gauntlet.
type gamesOutFlags struct {
	path    string
	recover bool
}

// gamesOutHelp is the help of --games-out and --recover, the same for
// every command that takes them.
const gamesOutHelp = `

--games-out FILE writes every game's full record into one JSON-lines file,
in game order whatever --workers: a header line naming the run, then each
game as a frame line (its number, players and result) followed by its
replay (docs/replays.md, "One file of many games"). kaisen replay FILE
lists its games, --verify checks them all and FILE#N (or --game-index N) draws
game N. --recover resumes a run that was stopped or killed: the games
already in FILE are read back (a torn last game is dropped), counted, and
only the missing games are played, so the final table is that of an
uninterrupted run with the same seed (without --seed the file's seed is
taken). FILE must record the same run (game, players, games, seed).`

// addGamesOutFlags registers --games-out and --recover.
func addGamesOutFlags(cmd *cobra.Command, f *gamesOutFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.path, "games-out", "", "write every game's record (its replay) into this one JSON-lines file, in game order")
	fl.BoolVar(&f.recover, "recover", false, "resume the interrupted run of --games-out FILE: count the games in it and play only the missing ones")
	must(cmd.MarkFlagFilename("games-out", "jsonl"))
}

// check refuses --recover without --games-out. A command with these
// flags draws its seed silently under --recover (seedLaterKey): given is
// whether --seed was; when it was not, seed becomes the file's (the run
// resumed) or, with no file yet, the drawn seed is announced here.
func (f *gamesOutFlags) check(cmd *cobra.Command, e *env, seed *uint64) error {
	if f.recover && f.path == "" {
		return usageError("--recover resumes the run recorded by --games-out FILE: add --games-out")
	}
	if !f.recover || cmd.Flags().Changed("seed") {
		return nil
	}
	raw, err := gamelog.RunOf(f.path)
	if errors.Is(err, os.ErrNotExist) { // nothing to resume: the run starts afresh
		fmt.Fprintf(e.stderr, "%s: seed %d (drawn at random; add --seed %d to repeat)\n", cmd.CommandPath(), *seed, *seed)
		return nil
	}
	if err != nil {
		return err
	}
	var run struct {
		Seed *uint64 `json:"seed"`
	}
	if err := json.Unmarshal(raw, &run); err != nil || run.Seed == nil {
		return fmt.Errorf("%s: the run has no seed", f.path)
	}
	*seed = *run.Seed
	fmt.Fprintf(e.stderr, "%s: resuming the run of %s, seed %d\n", cmd.CommandPath(), f.path, *seed)
	return nil
}

// recoverAnnotations are the command annotations of a command with
// --recover: the seed it resumes is the file's, printed by check.
func recoverAnnotations() map[string]string { return map[string]string{seedLaterKey: "recover"} }

// gamesOut is an open --games-out file and the games of a resumed run.
type gamesOut struct {
	w    *gamelog.Writer
	done []gamelog.Game // the games played before (--recover), in order
}

// open opens --games-out for the run run (its settings: game, players,
// games, seed), resuming it with --recover; nil without --games-out.
func (f *gamesOutFlags) open(run any) (*gamesOut, error) {
	if f.path == "" {
		return nil, nil
	}
	if !f.recover {
		w, err := gamelog.Create(f.path, run)
		return &gamesOut{w: w}, err
	}
	w, done, err := gamelog.Resume(f.path, run)
	if err != nil {
		if errors.Is(err, gamelog.ErrOtherRun) || errors.Is(err, gamelog.ErrNotGames) {
			return nil, &UsageError{Err: fmt.Errorf("--recover: %w", err)}
		}
		return nil, err
	}
	return &gamesOut{w: w, done: done}, nil
}

// close closes the file (nil-safe).
func (o *gamesOut) close() error {
	if o == nil {
		return nil
	}
	return o.w.Close()
}

// record is arena.Match.Record for the games of p1 against p2.
func (o *gamesOut) record(p1, p2 string) func(r *arena.GameResult, replay []byte) error {
	if o == nil {
		return nil
	}
	return func(r *arena.GameResult, replay []byte) error { return o.w.Add(p1, p2, r, replay) }
}

// played are the results of the run's games lo..hi-1 played before (the
// run's numbering), as their match numbers them.
func (o *gamesOut) played(lo, hi int) []arena.GameResult {
	if o == nil {
		return nil
	}
	var out []arena.GameResult
	for i := lo; i < min(hi, len(o.done)); i++ {
		out = append(out, o.done[i].Result.Arena())
	}
	return out
}

// matchRecord is the run of kaisen match as its --games-out file names it.
type matchRecord struct {
	Command   string `json:"command"`
	Game      string `json:"game"`
	P1        string `json:"p1"`
	P2        string `json:"p2"`
	P1Weights string `json:"p1_weights,omitempty"`
	P2Weights string `json:"p2_weights,omitempty"`
	Rules     string `json:"rules,omitempty"`
	Dialect   string `json:"dialect,omitempty"`
	Games     int    `json:"games"`
	Seed      uint64 `json:"seed"`
	Pairs     bool   `json:"pairs,omitempty"`
	SPRT      string `json:"sprt,omitempty"`
	// Adjudicate is the run's adjudication (--adjudicate, --max-actions),
	// e.g. "draw=200"; absent when off, so --recover refuses another.
	Adjudicate string `json:"adjudicate,omitempty"`
}

// openGamesOut opens match's --games-out for the match of fam.
func (f *matchFlags) openGamesOut(game string, fam arena.Family, paired bool) (*gamesOut, error) {
	if f.out.recover && (f.series > 0 || f.audit) {
		return nil, usageError("--recover cannot resume --series or --audit")
	}
	run := matchRecord{Command: "match", Game: game, Rules: f.config, Games: f.games, Seed: f.seed, Pairs: paired, SPRT: f.sprt,
		P1Weights: f.p1Config, P2Weights: f.p2Config}
	run.P1, run.P2 = fam.Players()
	if a := f.adjudicate.parsed; a.On() {
		run.Adjudicate = a.String()
	}
	if f.hasBot() {
		run.Dialect = f.bot.dialect
	}
	return f.out.open(run)
}

// recordPair is tournament.Config.Record.
func (o *gamesOut) recordPair() func(a, b string, r *arena.GameResult, replay []byte) error {
	if o == nil {
		return nil
	}
	return func(a, b string, r *arena.GameResult, replay []byte) error { return o.w.Add(a, b, r, replay) }
}

// tournamentRecord is the run of kaisen tournament as its --games-out
// file names it.
type tournamentRecord struct {
	Command string            `json:"command"`
	Game    string            `json:"game"`
	Players []string          `json:"players"`
	Weights map[string]string `json:"weights,omitempty"`
	Rules   string            `json:"rules,omitempty"`
	Dialect string            `json:"dialect,omitempty"`
	Games   int               `json:"games"`
	Seed    uint64            `json:"seed"`
}
