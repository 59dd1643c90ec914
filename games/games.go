package games

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

// ErrUnknownGame is wrapped by Lookup's error for a name that is not a game.
var ErrUnknownGame = errors.New("unknown game")

// Game is one game and the hooks the hosts run it with.
type Game struct {
	// Name is the game's name: the --game value, a replay header's "game"
	// and a server listener's game.
	Name string
	// Summary says what the game is, in one line.
	Summary string
	// Players lists the game's built-in AIs in roster order.
	Players func() []Player
	// CheckPlayer returns an error naming the known AIs when name is not
	// one of them.
	CheckPlayer func(name string) error
	// DefaultPlayers are the AIs of a match without --p1 and --p2.
	DefaultPlayers [2]string
	// Family builds the arena family of a match of p1 against p2 under the
	// game's rules in cfg (kaisen match).
	Family func(cfg arena.Config, p1, p2 Entrant) (arena.Family, error)
	// OpenReplay reads a replay file of this game (kaisen replay).
	OpenReplay func(path string) (Replay, error)
	// ReplayFlags are the render options only this game's replays take
	// (kaisen replay flag names).
	ReplayFlags []string
	// CheckRender, when set, refuses render options this game cannot
	// draw, before the file is read.
	CheckRender func(opt RenderOptions) error
	// PlayDefault is the AI of kaisen play without --player.
	PlayDefault string
	// NewClient builds the network client of kaisen play; its errors are
	// the user's (an unknown AI, bad settings).
	NewClient func(opt ClientOptions) (Client, error)
	// ErrUnknownPlayer is the error CheckPlayer and Family wrap for an
	// unknown AI (the CLI exits 2 on it).
	ErrUnknownPlayer error
	// Shots: a match counts each player's shots (arena.Summary.P1Shots),
	// and kaisen match reports them.
	Shots bool
	// Tools are the kaisen commands written for some games only that play
	// this one.
	Tools []Tool
	// HumanClient, when set, is the client of kaisen play --human: a
	// person types the moves on in and reads the game on out (or
	// opt.Typist types them); opt.Name is sent to servers that ask for
	// one. Its errors are the user's (an unknown typist wraps
	// ErrUnknownPlayer). nil: the game has no human seat.
	HumanClient func(opt HumanClientOptions, in *bufio.Reader, out io.Writer) (Client, error)
	// HumanLocal, when set, plays kaisen play --human --against:
	// opt.Games games in-process (a series when more than one,
	// humanSeries) between a person (typing on in, reading out) and the
	// built-in AI opt.Against. During play the person is told only what
	// the rules tell a seat (unless opt.Reveal); the AI's reasons come
	// after each game and in its replay. It returns an error when the
	// games cannot start (an unknown AI wraps ErrUnknownPlayer, bad
	// settings) or a replay cannot be written. Set with HumanClient, or
	// alone (a game with no network seat: a games.Def with a Text).
	HumanLocal func(in *bufio.Reader, out io.Writer, opt HumanOptions) error
	// Server, when set, is the game as the turn server serves it
	// (server.NewGame), for a game with a network host (a games.Def with a
	// Wire that has a Server or a Listen): Register registers it with the
	// server.
	Server server.Game
	// Unserved, when set, says why the game has no network host yet: the
	// server does not serve it and its NewClient refuses every AI (with an
	// error saying so), while kaisen match and kaisen replay play it.
	Unserved string
	// Conformance returns the conformance checks of the game
	// (game/conformance): its rules and AIs under the suite every game
	// passes (Checks builds them from a Def); a test runs them.
	Conformance func() []conformance.Check
	// Browse, when set, makes one game of a person against a house AI for
	// a host that seats the person outside a terminal (internal/web's
	// browser play; Browser), which the returned function plays to its
	// end. Define sets it for every game with a terminal seat, a public
	// view, its legal actions listed and an action always refused.
	Browse func(b Browser) (func() BrowserResult, error)
}

// Tool is a kaisen command written for some games only: it plays the
// games whose entry lists it (With) and refuses the others.
type Tool string

// The tools.
const (
	ToolTournament Tool = "tournament" // round robin with ratings (package tournament)
	ToolLoadtest   Tool = "loadtest"   // load test of a server (package loadtest)
	ToolShots      Tool = "shots"      // one AI shooting alone at random fleets
	ToolCount      Tool = "count"      // exact counts of the fleets consistent with a position
)

// Tools lists every tool.
func Tools() []Tool {
	return []Tool{ToolTournament, ToolLoadtest, ToolShots, ToolCount}
}

// Has reports whether the game lists tool t.
func (g Game) Has(t Tool) bool { return slices.Contains(g.Tools, t) }

// With lists the names of the games that list tool t, in the order of All.
func With(t Tool) []string {
	var names []string
	for _, g := range all {
		if g.Has(t) {
			names = append(names, g.Name)
		}
	}
	return names
}

// Player is one built-in AI of a game.
type Player struct {
	Name    string
	Summary string
	Config  string // the YAML file under configs/ documenting its settings ("" = none)
}

// Entrant is one side of a match: the AI's name and the loader of its
// settings file (nil = its built-in defaults).
type Entrant struct {
	Name string
	Load roster.Loader
}

// Replay is a replay file read by its game.
type Replay interface {
	// Verify re-plays the file through the rules and fails on any mismatch.
	Verify() error
	// Summary is the verified game in a few words, e.g. "57 actions, seat
	// 0 admiral wins".
	Summary() string
	// Moves is the number of actions (shots) recorded; Move names one
	// ("action", "shot").
	Moves() int
	Move() string
	// Render draws the game, or a range of its moves, as text.
	Render(w io.Writer, opt RenderOptions) error
	// HTML writes the game as a self-contained HTML page (replay.WriteHTML).
	HTML(w io.Writer) error
}

// RenderOptions selects what a Replay draws. The game-specific options
// are ignored by the other games (Game.ReplayFlags lists a game's own).
type RenderOptions struct {
	From, To int // moves From to To (0 = the start; To < 0 = to the end)
	// Submarine: each side's belief about the other fleet under its board,
	// and the runs of at least Fold actions without a hit drawn as one line
	// (0: every action).
	Heatmap bool
	Fold    int
	// Battleship: when to draw the boards (bsrecord.BoardsEnd, BoardsTurn,
	// BoardsShot) and whether to name the columns in Cyrillic.
	Boards   string
	Cyrillic bool
}

// All lists the games, the default (the submarine game) first.
func All() []Game { return slices.Clone(all) }

var all = []Game{submarineGame, battleshipGame, abilitiesGame}

// init registers the built-in games (their Server, from their Def) with
// package server, in the order of All (the submarine game, the default,
// first), as Register does for the others.
func init() {
	for _, g := range all {
		if g.Server.Name() == "" {
			continue
		}
		if err := server.Register(g.Server); err != nil {
			panic(fmt.Sprintf("games: built-in game %s: %v", g.Name, err)) // a name registered twice: a bug here
		}
	}
}

// Names lists the game names in the order of All.
func Names() []string {
	names := make([]string, len(all))
	for i, g := range all {
		names[i] = g.Name
	}
	return names
}

// Served lists the names of the games with a network host (Unserved
// empty), in the order of All: the games a server must serve.
func Served() []string {
	var names []string
	for _, g := range all {
		if g.Unserved == "" {
			names = append(names, g.Name)
		}
	}
	return names
}

// Default is the game played when none is named: the submarine game.
func Default() Game { return all[0] }

// Lookup returns the game called name; for any other name the error
// wraps ErrUnknownGame and lists the games.
func Lookup(name string) (Game, error) {
	for _, g := range all {
		if g.Name == name {
			return g, nil
		}
	}
	return Game{}, fmt.Errorf("%w %q (games: %s)", ErrUnknownGame, name, strings.Join(Names(), ", "))
}

// OfReplay is the game of the replay file at path, named by its header;
// Default when the file names no game it knows (OpenReplay then reports
// what is wrong with it).
func OfReplay(path string) Game {
	if name, err := replay.GameOfFile(path); err == nil {
		if g, err := Lookup(name); err == nil {
			return g
		}
	}
	return Default()
}

// optional are the fields of Game an entry may leave unset.
var optional = map[string]bool{"ReplayFlags": true, "CheckRender": true, "Shots": true, "Tools": true, "HumanClient": true, "HumanLocal": true, "Unserved": true, "Server": true, "Browse": true}

// Missing lists the required fields of g that are unset (zero, or an
// array with a zero element), in the order of Game: an entry with any is
// incomplete and a host would fail on it. Every field is required unless
// its comment says "when set" or it is a list (ReplayFlags, Tools) or a
// capability (Shots). A HumanClient needs a HumanLocal (a human seat on
// servers needs one in-process too); a HumanLocal may come alone.
func Missing(g Game) []string {
	var out []string
	v := reflect.ValueOf(g)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		switch {
		case !optional[name] && unset(v.Field(i)):
			out = append(out, name)
		case name == "HumanLocal" && g.HumanLocal == nil && g.HumanClient != nil:
			out = append(out, name)
		}
	}
	return out
}

func unset(v reflect.Value) bool {
	if v.Kind() == reflect.Array {
		for j := range v.Len() {
			if v.Index(j).IsZero() {
				return true
			}
		}
		return false
	}
	return v.IsZero()
}
