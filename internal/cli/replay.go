package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/gamelog"
	"github.com/kaisen-ai/kaisen/games"
)

// replayFlags are kaisen replay's flags.
type replayFlags struct {
	turn, from, fold    int
	verifyOnly, heatmap bool
	boards              string
	cyrillic            bool
	json                bool
	html                string
	audit               bool
	index               int // --game-index: the game of a games file (-1: none)
}

// replayLong is kaisen replay --help's text.
const replayLong = `Show a replay written by kaisen match --replays or kaisen serve. The game
(submarine or battleship) is read from the file's header.

Submarine: both fleets side by side after every action, the attacked cell in
[ ], the sea around it (where the defender's "near" report looks) as ~, each
move as ( ) with the cell it left, sunk ships as x, and in words what
happened: hit, sunk, splash, displacement. With --heatmap, each board gets a
second grid below it: what the opponent can know of that fleet from
everything it was told, as the probability (in percent) that a ship is on
each cell, exact over every consistent placement. A run of --fold (50) or more actions
in a row without a hit (misses and moves, the quiet stretch of a long draw)
is one line, then the position at its last action; --fold 0 draws every
action.

Battleship: every shot on one line, in letter+number coordinates (columns A,
B, C, ... J, rows 1 to 10; A1 is the wire's [0,0]): miss, hit, kill with the
sunk ship, a shot again, an illegal shot; then both boards with ships (O),
hits (x), sunk ships (#), misses (o) and the last shot in [ ]. --boards turn
or --boards shot also draws them after every turn (a turn ends on a miss) or
every shot; --cyrillic names the columns а б в г д е ж з и к.

The replay is re-played through the rules engine first; a file that does not
match the rules (edited, corrupted, from an incompatible version) is refused.
docs/replays.md and docs/battleship.md describe the file formats.

With --html FILE the game is written as one self-contained web page instead
(no network needed: open it from disk): both boards, every action in words,
hp bars, keyboard (left/right arrows, Home, End) and slider navigation,
jumps to the next or previous hit, sinking and move (keys h, s, m; with
Shift back), a timeline with the quiet stretches folded (q skips one), the
address's #N following the action shown and,
when the replay was recorded with kaisen match --explain, the heatmaps of
each belief player's view of the enemy fleet and of its own exposure at every
turn (docs/replays.md).

With --audit (submarine) the game is checked with the exact endgame solver
instead of drawn (docs/endgame.md, "Auditing finished games"): when both
fleets became common knowledge, and whether the loser lost a position the
solver values drawn or won for it, with the action that threw it away,
and how the game went for each side by the solver (see kaisen match
--audit); with --json as one object. --audit DIR audits every replay
(*.jsonl) of a directory, e.g. one written by kaisen match --replays, and
prints the summary kaisen match --audit prints, with the games won, drawn
and lost and the length of the longest game won by a player.

With --json the replay is checked as with --verify and summarised as one
JSON object: file, game, version, seed, players, first, outcome, winner,
actions (submarine) or shots (battleship), forfeits, and adjudicated when a
research run (kaisen match --adjudicate, --max-actions) ended it as a draw.
--verify DIR and --json DIR check every replay (*.jsonl) of a directory,
a line each, and name the files that do not verify.

A file of many games (kaisen match, tournament or gauntlet --games-out)
lists its games, one line each (number, players, seats, result); --verify
checks every game and --json summarises each on a line of its own. FILE#N
or --game-index N picks game N (from 0), drawn, verified, audited or written
with --html as a single replay (docs/replays.md, "One file of many
games").`

func newReplayCmd(e *env) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay FILE|FILE#N|DIR",
		Short: "Show a recorded game turn by turn as ASCII boards",
		Long:  replayLong,
		Example: `  kaisen replay out/game-000003.jsonl             the whole game
  kaisen replay out/game-000003.jsonl --turn 0    the placements only
  kaisen replay out/game-000003.jsonl --turn 42   the position after action (shot) 42
  kaisen replay out/game-000003.jsonl --from 40   action (shot) 40 to the end
  kaisen replay out/game-000003.jsonl --turn 42 --heatmap   with each side's belief (submarine)
  kaisen replay out/game-000003.jsonl --fold 0    every action, the quiet stretches too (submarine)
  kaisen replay out/game-000003.jsonl --verify    check the file, print a one-line summary
  kaisen replay out/ --verify                     check every replay of a directory
  kaisen replay out/game-000003.jsonl --html game.html   a web page to step through (with heatmaps)
  kaisen replay out/game-000003.jsonl --audit     lost after a position the exact solver holds? (submarine)
  kaisen replay out/ --audit --json               the same for every replay of a match (submarine)
  kaisen match --game battleship -n 3 --replays bs/ && kaisen replay bs/game-000001.jsonl --boards turn
  kaisen replay bs/game-000001.jsonl --cyrillic   columns а б в г д е ж з и к
  kaisen match -n 100 --games-out run.jsonl && kaisen replay run.jsonl   list the games of one file
  kaisen replay run.jsonl --verify                check every game of the file
  kaisen replay 'run.jsonl#42' --html game.html   game 42 of the file as a web page`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, index, err := gamesPath(args[0], f.index)
			if err != nil {
				return err
			}
			if gamelog.IsFile(path) {
				return runGamesReplay(e, cmd, path, index, &f)
			}
			if st, err := os.Stat(path); err == nil && st.IsDir() && !f.audit {
				return runReplayDir(e, cmd, path, &f)
			}
			return runReplay(e, cmd, path, &f)
		},
	}
	cmd.Flags().IntVar(&f.index, "game-index", -1, "a file of many games (--games-out): the game to draw, verify or write, from 0 (also FILE#N)")
	cmd.Flags().IntVar(&f.turn, "turn", 0, "show only the position after this action or shot (0 = the start)")
	cmd.Flags().IntVar(&f.from, "from", 0, "start at this action or shot and go on to the end")
	cmd.Flags().BoolVar(&f.verifyOnly, "verify", false, "only check the replay against the rules")
	cmd.Flags().IntVar(&f.fold, "fold", DefaultFold, "submarine: draw every run of at least this many actions without a hit as one line (0: draw every action)")
	cmd.Flags().BoolVar(&f.heatmap, "heatmap", false, "under each board, what the opponent can know of that fleet (% ship per cell; submarine)")
	cmd.Flags().StringVar(&f.boards, "boards", bsrecord.BoardsEnd, "battleship: draw the boards at the end, after every turn or every shot (end, turn, shot)")
	cmd.Flags().BoolVar(&f.cyrillic, "cyrillic", false, "battleship: name the columns а б в г д е ж з и к instead of A to J")
	cmd.Flags().BoolVar(&f.audit, "audit", false, "submarine: check the game with the exact endgame solver (a position drawn or won thrown away) instead of drawing it")
	cmd.Flags().StringVar(&f.html, "html", "", "write the game as a self-contained HTML page to this file instead of drawing it")
	addJSONFlag(cmd, &f.json, "check the replay and print a one-object JSON summary instead of the boards")
	completeWords(cmd, "boards", bsrecord.BoardsEnd, bsrecord.BoardsTurn, bsrecord.BoardsShot)
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{"jsonl"}, cobra.ShellCompDirectiveFilterFileExt
	}
	return cmd
}

// DefaultFold is kaisen replay --fold: a run of 50 actions without a hit
// is one line, so a 10,000-action draw reads in a few screens.
const DefaultFold = 50

// runReplay is kaisen replay: the game named by the file's header (the
// submarine game when it names none readable) reads, verifies and draws it.
func runReplay(e *env, cmd *cobra.Command, path string, f *replayFlags) error {
	g := games.OfReplay(path)
	for _, other := range games.All() {
		for _, name := range other.ReplayFlags {
			if other.Name != g.Name && !slices.Contains(g.ReplayFlags, name) && cmd.Flags().Changed(name) {
				return usageError("--%s is for %s replays", name, other.Name)
			}
		}
	}
	if f.fold == 1 || f.fold < 0 {
		return usageError("--fold %d: fold runs of 2 or more actions, or 0 to draw every action", f.fold)
	}
	opt := games.RenderOptions{From: f.from, To: -1, Heatmap: f.heatmap, Fold: f.fold, Boards: f.boards, Cyrillic: f.cyrillic}
	if g.CheckRender != nil {
		if err := g.CheckRender(opt); err != nil {
			return usageError("%w", err)
		}
	}
	if f.audit {
		if f.html != "" || f.verifyOnly || cmd.Flags().Changed("turn") || cmd.Flags().Changed("from") || f.heatmap {
			return usageError("--audit checks the whole game: it excludes --html, --verify, --turn, --from and --heatmap")
		}
		return auditReplay(e, path, f.json)
	}
	rp, err := g.OpenReplay(path)
	if err != nil {
		return err
	}
	if f.html != "" {
		if f.json || f.verifyOnly || cmd.Flags().Changed("turn") || cmd.Flags().Changed("from") {
			return usageError("--html writes the whole game: it excludes --json, --verify, --turn and --from")
		}
		return writeHTMLFile(f.html, rp)
	}
	if f.json || f.verifyOnly {
		if err := rp.Verify(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if f.json {
		sum, err := replaySummary(path)
		if err != nil {
			return err
		}
		return json.NewEncoder(e.stdout).Encode(sum)
	}
	if f.verifyOnly {
		_, err := fmt.Fprintf(e.stdout, "%s: ok: %s\n", path, rp.Summary())
		return err
	}
	if cmd.Flags().Changed("turn") {
		if cmd.Flags().Changed("from") {
			return usageError("--turn and --from exclude each other")
		}
		opt.From, opt.To = f.turn, f.turn
	}
	if n := rp.Moves(); opt.From < 0 || opt.From > n {
		return usageError("%s %d: the game has %ss 1 to %d (0 is the start)", rp.Move(), opt.From, rp.Move(), n)
	}
	return rp.Render(e.stdout, opt)
}

// replayJSON is kaisen replay --json: the checked game in one object, from
// the header (first line) and the result (last line) every game's replay
// format shares.
type replayJSON struct {
	File    string `json:"file"`
	Game    string `json:"game"`
	Version string `json:"version"` // kaisen version that wrote the file
	Seed    uint64 `json:"seed"`
	Players [2]struct {
		Name string `json:"name"`
	} `json:"players"` // by seat
	First    int     `json:"first"` // the seat that acted first
	Outcome  string  `json:"outcome"`
	Winner   int     `json:"winner"`            // -1 on a draw
	Actions  *int    `json:"actions,omitempty"` // submarine
	Shots    *[2]int `json:"shots,omitempty"`   // battleship, by seat
	Forfeits []any   `json:"forfeits"`
	// Adjudicated is why a research run ended the game as a draw
	// (match --adjudicate, --max-actions), absent when it did not.
	Adjudicated string `json:"adjudicated,omitempty"`
	Verified    bool   `json:"verified"` // re-played through the rules (else an error)
}

// replaySummary reads the header and result lines of a verified replay.
func replaySummary(path string) (*replayJSON, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var first, last []byte
	for sc.Scan() {
		if first == nil {
			first = append([]byte(nil), sc.Bytes()...)
		}
		if len(sc.Bytes()) > 0 {
			last = append(last[:0], sc.Bytes()...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := &replayJSON{File: path, Verified: true, Forfeits: []any{}}
	if err := json.Unmarshal(first, out); err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	if err := json.Unmarshal(last, out); err != nil {
		return nil, fmt.Errorf("%s: result: %w", path, err)
	}
	if out.Forfeits == nil {
		out.Forfeits = []any{}
	}
	return out, nil
}

// writeHTMLFile writes rp's HTML page to path (nothing when the replay
// does not verify).
func writeHTMLFile(path string, rp games.Replay) error {
	var page bytes.Buffer
	if err := rp.HTML(&page); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, page.Bytes(), 0o644)
}

// writeHTMLReplays writes DIR/game-NNNNNN.html beside each of the first n
// replays of a match (kaisen match --replays DIR --html).
func writeHTMLReplays(dir string, n int) error {
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("game-%06d.jsonl", i))
		rp, err := games.OfReplay(path).OpenReplay(path)
		if err != nil {
			return err
		}
		if err := writeHTMLFile(strings.TrimSuffix(path, ".jsonl")+".html", rp); err != nil {
			return err
		}
	}
	return nil
}
