package games

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/server"
)

// Def is what a game on the contract (package game) gives the registry:
// its name, its rules, its AIs, its record, its terminal text and its
// wire codec with its public view. Define turns it into the
// game's entry; the hooks every game shares are written once, here and in
// the generic hosts, never per game. R is the game's rules type, which
// implements game.Rules.
type Def[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	Name    string
	Summary string
	// Rules are the game's rules for a match config whose game is Name (a
	// game without settings of its own ignores cfg).
	Rules func(cfg arena.Config) (R, error)
	// AIs are the game's built-in players, in roster order; a roster
	// entry's Build makes a factory for the rules.
	AIs AIs[R, game.Factory[P, A, O]]
	// ErrUnknownPlayer is wrapped by AIs' error for an unknown name.
	ErrUnknownPlayer error
	// DefaultPlayers are the AIs of a match without --p1 and --p2;
	// PlayDefault is the AI of kaisen play without --player.
	DefaultPlayers [2]string
	PlayDefault    string
	// First is the seat that acts first in game index of a match under
	// cfg (nil: seat 0).
	First func(cfg arena.Config, index int) int
	// Record starts a game's replay and OpenReplay reads a replay file of
	// the game: its own record format (game/<g>/record). With neither set
	// the game's replays are package jsonrecord's (its own types as JSON
	// lines, verified under its default rules, drawn as text).
	Record     func(rules R, w io.Writer, h arena.RecordHeader) arena.Recorder[P, A, S]
	OpenReplay func(path string) (Replay, error)
	// Shots: the game counts each seat's shots (arena.Summary.P1Shots).
	Shots bool
	// Wire is the game's wire codec (nil: the game has no network host):
	// with it the server serves the game (Register registers it with
	// package server) and kaisen play plays it (NewClient).
	Wire *Wire[R, P, A, O]
	// House is the house AI of a server listener of the game whose
	// opponent is not set ("" = pair clients).
	House string
	// View, when set, is the public view of a game in play (game.View,
	// written in the game's folder): what the server's spectators and the
	// live view see of it.
	View func(g G) game.View[S]
	// Illegal are actions the rules refuse in every position, and Perft
	// pinned perft counts: what the conformance suite (game/conformance)
	// needs beyond the rules and the AIs (it plays every AI against
	// DefaultPlayers[1]). The rules must implement game.Legal.
	Illegal []A
	Perft   []conformance.Perft[R, P, A]
	// Text, when set, makes the terminal seat's Text (internal/human) of
	// seat for rules, writing to out; rng draws its random placement.
	// With it the game has kaisen play --human --against (HumanLocal,
	// through the same loop as the built-in games: the AI's actions in
	// the Text's Line words, its reasons from its explanations, the replay
	// from Record) and the conformance suite checks the typed round trip
	// (conformance.Subject.Text); with a Wire too, kaisen play --human
	// plays it on servers (HumanClient: the same person on the game's
	// client codec).
	Text func(rules R, seat int, out io.Writer, rng *rand.Rand) human.Text[P, A, O]
	// Local, when set, is the person's game in-process beyond the rules
	// (human.Local: the AI's actions in words, how a game ended as the
	// person is told it, the replay); nil: the Text's Line words,
	// human.ResultEnd and Record.
	Local func(rules R) *human.Local[G, P, A, S, O]
	// Intro, when set, says who plays where before each game of kaisen
	// play --human --against (nil: "you (seat 0, acting first) against X").
	Intro func(rules R, seat, first int, against string) string
	// Sides, when set, is the seat of the side the person plays in a game
	// with sides (HumanOptions.Side, "" = the game's default): the person
	// keeps that seat, acting first in the odd games of a series and
	// second in the even ones. nil: the game has no sides, the person
	// plays seat k%2 in game k, seat 0 first.
	Sides func(rules R, side string) (seat int, err error)
	// ReplayFlags and CheckRender are the entry's (Game): the render
	// options only this game's replays take, and their check.
	ReplayFlags []string
	CheckRender func(opt RenderOptions) error
	// Tools are the kaisen commands written for some games only that play
	// the game (kaisen shots, kaisen count). Define adds the generic ones:
	// ToolTournament for every game, ToolLoadtest for a game the server
	// serves.
	Tools []Tool
	// Family, when set, builds the arena family of a match (Game.Family)
	// instead of an arena.Game of Rules, AIs, First and Record: a game
	// whose family has its own type, which hosts switch on (the submarine
	// game's arena.Submarine: kaisen match --audit).
	Family func(cfg arena.Config, p1, p2 Entrant) (arena.Family, error)
}

// Wire is a game's wire codec, written in the game's folder: R is its
// rules, P, A and O the contract's placement, action and observation.
type Wire[R, P, A, O any] struct {
	// Server makes the server side for one pairing playing rules (nil: the
	// server serves the game only with Listen, or not at all).
	Server func(rules R) game.ServerCodec[P, A, O]
	// Listen, when set, is what a server listener of the game plays from
	// its settings of the game, instead of Server and Settings: the
	// game's own listener settings (the submarine game's dialect and
	// board: server.Contract.Listen).
	Listen func(l server.ListenerConfig) (server.Listening[R, P, A, O], error)
	// Client makes the client side for one connection playing rules (the
	// rules of the game's default match config, as the server's).
	Client func(rules R) game.ClientCodec[R, P, A, O]
	// Named, when set, makes the client side instead of Client, for
	// servers that may ask the client its name (the submarine-py dialect):
	// name is ClientOptions.Name ("kaisen-" + the AI when unset, one
	// non-blank line) or the human seat's.
	Named func(rules R, name string) game.ClientCodec[R, P, A, O]
	// Wording, when set, words the client's errors (client.WordSubmarine);
	// unset: client.WordGames.
	Wording client.Wording
	// Board, when set, is the size of the board rules play on, which a
	// listener's log line names (server.Contract.Board).
	Board func(rules R) (width, height int)
	// Settings, when set, are the rules of a server listener from its
	// settings of the game (server.Contract.Settings); nil: the default
	// rules, the same the clients play.
	Settings func(l server.ListenerConfig) (R, error)
	// Dialects, when set, are the listener settings of the game that the
	// wire conformance check plays, one per dialect (and board or options
	// worth a check): only the game's own fields (Dialect, Width, Height,
	// Rocks, Rounded, Abilities); the check sets the address, opponent,
	// games and first-player policy. nil: the default listener's.
	Dialects []server.ListenerConfig
}

// codec makes the client side of each connection playing rules, sending
// name to servers that ask for one.
func (w *Wire[R, P, A, O]) codec(rules R, name string) func() game.ClientCodec[R, P, A, O] {
	if w.Named != nil {
		return func() game.ClientCodec[R, P, A, O] { return w.Named(rules, name) }
	}
	return func() game.ClientCodec[R, P, A, O] { return w.Client(rules) }
}

// AIs lists and builds a game's AIs, whose factories have type F: a
// *roster.Roster, or Adapted for a players package whose factories are its
// own type.
type AIs[R, F any] interface {
	Entries() []roster.Entry[R, F]
	Lookup(name string) (roster.Entry[R, F], error)
	New(name string, rules R, load roster.Loader) (F, error)
}

// Adapted returns the AIs that entries, lookup and build list, check and
// build (a players package's Entries, Lookup and New), each factory passed
// through adapt (the package's Adapt to the contract).
func Adapted[R, F, G any](entries func() []roster.Entry[R, F], lookup func(string) (roster.Entry[R, F], error),
	build func(string, R, roster.Loader) (F, error), adapt func(F) G) AIs[R, G] {
	return adapted[R, F, G]{entries, lookup, build, adapt}
}

type adapted[R, F, G any] struct {
	entries func() []roster.Entry[R, F]
	lookup  func(string) (roster.Entry[R, F], error)
	build   func(string, R, roster.Loader) (F, error)
	adapt   func(F) G
}

func (a adapted[R, F, G]) entry(e roster.Entry[R, F]) roster.Entry[R, G] {
	return roster.Entry[R, G]{Name: e.Name, Summary: e.Summary, Config: e.Config, Build: func(r R, load roster.Loader) (G, error) {
		f, err := e.Build(r, load)
		if err != nil {
			var zero G
			return zero, err
		}
		return a.adapt(f), nil
	}}
}

func (a adapted[R, F, G]) Entries() []roster.Entry[R, G] {
	var out []roster.Entry[R, G]
	for _, e := range a.entries() {
		out = append(out, a.entry(e))
	}
	return out
}

func (a adapted[R, F, G]) Lookup(name string) (roster.Entry[R, G], error) {
	e, err := a.lookup(name)
	if err != nil {
		return roster.Entry[R, G]{}, err
	}
	return a.entry(e), nil
}

func (a adapted[R, F, G]) New(name string, r R, load roster.Loader) (G, error) {
	f, err := a.build(name, r, load)
	if err != nil {
		var zero G
		return zero, err
	}
	return a.adapt(f), nil
}

// ErrNoHost is wrapped by the errors of the hooks a Def'd game does not
// have yet (a network client, replays).
var ErrNoHost = errors.New("games: not available for this game")

// Define returns the registry entry of the game d describes: its AIs
// listed, checked and built from d.AIs, its matches played by one
// arena.Game family, and the hooks it lacks refusing with an error that
// wraps ErrNoHost.
func Define[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) Game {
	if d.Record == nil && d.OpenReplay == nil {
		d.Record, d.OpenReplay = jsonRecord(d)
	}
	ais := aiRoster[R, game.Factory[P, A, O]]{d.AIs.Entries, d.AIs.Lookup, d.AIs.New}
	g := Game{
		Name:             d.Name,
		Summary:          d.Summary,
		Players:          ais.players,
		CheckPlayer:      ais.check,
		DefaultPlayers:   d.DefaultPlayers,
		PlayDefault:      d.PlayDefault,
		ErrUnknownPlayer: d.ErrUnknownPlayer,
		Shots:            d.Shots,
		Family: ais.family(d.Rules, func(cfg arena.Config, rules R, p1, p2 Entrant, f1, f2 game.Factory[P, A, O]) arena.Family {
			fam := &arena.Game[G, P, A, S, O]{Name: d.Name, Rules: rules, First: d.firstOf(cfg),
				P1: arena.Entrant[P, A, O]{Name: p1.Name, Factory: f1},
				P2: arena.Entrant[P, A, O]{Name: p2.Name, Factory: f2}}
			if d.Record != nil {
				fam.Record = func(w io.Writer, h arena.RecordHeader) arena.Recorder[P, A, S] { return d.Record(rules, w, h) }
			}
			return fam
		}),
		OpenReplay:  d.OpenReplay,
		ReplayFlags: d.ReplayFlags,
		CheckRender: d.CheckRender,
		Conformance: func() []conformance.Check { return Checks(d) },
		Tools:       append([]Tool{ToolTournament}, d.Tools...),
	}
	if d.Family != nil {
		g.Family = d.Family
	}
	if g.OpenReplay == nil {
		g.OpenReplay = func(string) (Replay, error) {
			return nil, fmt.Errorf("%w: %s writes no replays", ErrNoHost, d.Name)
		}
	}
	if d.Wire != nil {
		if d.Wire.Server != nil || d.Wire.Listen != nil {
			g.Server = defServer(d)
			g.Tools = append(g.Tools, ToolLoadtest)
		}
		g.NewClient = clientHook(d.Name, d.Wire.Wording, func() R { return defRules(d) }, ais,
			func(f game.Factory[P, A, O]) game.Factory[P, A, O] { return f },
			func(opt ClientOptions) (func() game.ClientCodec[R, P, A, O], error) {
				rules, err := defaultRules(d)
				if err != nil {
					return nil, err
				}
				name := opt.Name
				if d.Wire.Named != nil {
					if name == "" {
						name = "kaisen-" + opt.Player
					}
					if strings.ContainsAny(name, "\r\n") || strings.TrimSpace(name) == "" {
						return nil, fmt.Errorf("--name %q: want one non-blank line", name)
					}
				}
				return d.Wire.codec(rules, name), nil
			})
	} else {
		g.Unserved = "its games.Def has no wire codec (Wire)"
		g.NewClient = func(ClientOptions) (Client, error) {
			return nil, fmt.Errorf("%w: %s has no network client (%s)", ErrNoHost, d.Name, g.Unserved)
		}
	}
	if d.Text != nil {
		g.HumanLocal = func(in *bufio.Reader, out io.Writer, opt HumanOptions) error { return defHuman(d, in, out, opt) }
	}
	if browsable(d) == "" {
		g.Browse = func(b Browser) (func() BrowserResult, error) { return defBrowse(d, b) }
	}
	if d.Text != nil && d.Wire != nil {
		g.HumanClient = func(opt HumanClientOptions, in *bufio.Reader, out io.Writer) (Client, error) {
			return defHumanClient(d, opt, in, out)
		}
	}
	return g
}

// defHumanClient is the HumanClient of the game d describes: a person
// (human.Person through d.Text, reading in and writing out, or typed by
// the AI opt.Typist) in each game's seat on the client side of d's wire,
// with the default rules, sending opt.Name to servers that ask for one.
func defHumanClient[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O], opt HumanClientOptions, in *bufio.Reader, out io.Writer) (Client, error) {
	typist := func(R) (game.Factory[P, A, O], error) { return nil, nil }
	if opt.Typist != "" {
		typist = func(r R) (game.Factory[P, A, O], error) {
			f, err := d.AIs.New(opt.Typist, r, nil)
			if err != nil {
				return nil, fmt.Errorf("typist: %w", err)
			}
			return f, nil
		}
		// Built once so that an unknown typist fails before connecting.
		if _, err := typist(defRules(d)); err != nil {
			return nil, err
		}
	}
	return &netClient[R, P, A, O]{name: d.Name, wording: d.Wire.Wording,
		codec: d.Wire.codec(defRules(d), opt.Name),
		build: func(r R) (game.Factory[P, A, O], error) {
			types, err := typist(r)
			if err != nil {
				return nil, err
			}
			return func(rng *rand.Rand, seat int) game.Player[P, A, O] {
				return seatPerson(func(me *rand.Rand) human.Text[P, A, O] { return d.Text(r, seat, out, me) }, types, rng, seat, in, out)
			}, nil
		}}, nil
}

// defaultRules are the rules of the game d describes in its default
// match config: those its server listeners and its network clients play.
func defaultRules[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) (R, error) {
	return d.Rules(defaultConfig(d))
}

// defaultConfig is the match config of d's game by default.
func defaultConfig[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) arena.Config {
	cfg := arena.DefaultConfig()
	cfg.Game = d.Name
	return cfg
}

// firstOf is First under cfg: the seat that acts first in game index of a
// match (nil: seat 0 in every game).
func (d *Def[R, G, P, A, S, O]) firstOf(cfg arena.Config) func(index int) int {
	if d.First == nil {
		return nil
	}
	return func(index int) int { return d.First(cfg, index) }
}

// defRules are defaultRules, which NewClient has built once already.
func defRules[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) R {
	r, _ := defaultRules(d)
	return r
}

// defServer is the server's game (server.NewGame) that d describes: its
// default rules, its AIs as house AIs, its wire's server side, view and
// replay.
func defServer[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) server.Game {
	return server.NewGame(server.Contract[R, G, P, A, S, O]{
		Name:  d.Name,
		House: d.House,
		Rules: func() (R, error) { return defaultRules(d) },
		AI: func(name string, rules R, load func(any) error) (game.Factory[P, A, O], error) {
			return d.AIs.New(name, rules, load)
		},
		Wire:     d.Wire.Server,
		Listen:   d.Wire.Listen,
		View:     d.View,
		Record:   d.Record,
		Board:    d.Wire.Board,
		Settings: d.Wire.Settings,
	})
}

// defHuman is the HumanLocal of the game d describes: its default rules,
// the person's seat through d.Text, seat k%2 in game k, seat 0 first.
func defHuman[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O], in *bufio.Reader, out io.Writer, opt HumanOptions) error {
	rules, err := defaultRules(d)
	if err != nil {
		return err
	}
	var local *human.Local[G, P, A, S, O]
	if d.Local != nil {
		local = d.Local(rules)
	} else {
		words := d.Text(rules, 0, io.Discard, nil)
		local = &human.Local[G, P, A, S, O]{Rules: rules, Action: words.Line, End: human.ResultEnd[G, P]}
		if d.Record != nil {
			local.Record = func(w io.Writer, h arena.RecordHeader) arena.Recorder[P, A, S] { return d.Record(rules, w, h) }
		}
	}
	hg := humanGame[G, P, A, S, O]{
		name:  d.Name,
		local: local,
		text:  func(out io.Writer, me *rand.Rand, seat int) human.Text[P, A, O] { return d.Text(rules, seat, out, me) },
		build: func(name string, load roster.Loader) (game.Factory[P, A, O], error) {
			return d.AIs.New(name, rules, load)
		},
		intro: func(seat, first int, against string) string {
			return fmt.Sprintf("you (seat %d, acting %s) against %s", seat, actingOrder(seat, first), against)
		},
	}
	if d.Intro != nil {
		hg.intro = func(seat, first int, against string) string { return d.Intro(rules, seat, first, against) }
	}
	if d.Sides != nil {
		seat, err := d.Sides(rules, opt.Side)
		if err != nil {
			return fmt.Errorf("--side: %w", err)
		}
		hg.sides = true
		hg.seats = func(k int) (int, int) {
			if k%2 == 1 {
				return seat, 1 - seat
			}
			return seat, seat
		}
	}
	return humanLocal(in, out, opt, hg)
}

// actingOrder says whether seat acts "first" or "second" when seat first
// acts first.
func actingOrder(seat, first int) string {
	if seat != first {
		return "second"
	}
	return "first"
}

// Checks returns the conformance checks of the game d describes (the
// Conformance hook of its entry): its default rules (d.Rules of
// arena.DefaultConfig for the game) and every AI of d.AIs with its default
// settings, each playing DefaultPlayers[1]. Rules or an AI that cannot be
// built give one failing check. The replay round trip (replayCheck) and,
// for a game with a Wire, the wire round trips in every dialect
// (wireCheck) join them (conformance.Subject.Extra).
func Checks[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) []conformance.Check {
	rules, err := defaultRules(d)
	if err != nil {
		return failing(d.Name, fmt.Errorf("rules: %w", err))
	}
	s := conformance.Subject[R, G, P, A, S, O]{Name: d.Name, Rules: rules, First: d.firstOf(defaultConfig(d)), Illegal: d.Illegal, Perft: d.Perft, Opponent: -1}
	if d.Text != nil {
		s.Text = func(seat int, rng *rand.Rand) conformance.Typed[P, A, O] { return d.Text(rules, seat, io.Discard, rng) }
	}
	for _, e := range d.AIs.Entries() {
		f, err := e.Build(rules, nil)
		if err != nil {
			return failing(d.Name, fmt.Errorf("AI %s: %w", e.Name, err))
		}
		if e.Name == d.DefaultPlayers[1] {
			s.Opponent = len(s.AIs)
		}
		s.AIs = append(s.AIs, arena.Entrant[P, A, O]{Name: e.Name, Factory: f})
	}
	if d.Record != nil && d.OpenReplay != nil {
		s.Extra = append(s.Extra, replayCheck(d, &s))
	}
	if d.Wire != nil {
		s.Extra = append(s.Extra, wireCheck(d))
	}
	return conformance.Checks(s)
}

// failing is the one check of a game whose subject cannot be built.
func failing(name string, err error) []conformance.Check {
	return []conformance.Check{{Name: "subject", Run: func(t conformance.T) { t.Errorf("%s: %v", name, err) }}}
}

// ErrRegister is wrapped by Register's errors.
var ErrRegister = errors.New("games: register")

// Register adds g to the registry, after the built-in games: the one line
// that registers a game. Call it from an init function (or a test's),
// before any host looks the registry up: it is not safe for concurrent
// use. It fails on a name already registered and on an entry with unset
// required hooks (Missing).
func Register(g Game) error {
	if miss := Missing(g); len(miss) > 0 {
		return fmt.Errorf("%w %q: unset %v", ErrRegister, g.Name, miss)
	}
	for _, old := range all {
		if old.Name == g.Name {
			return fmt.Errorf("%w %q: registered twice", ErrRegister, g.Name)
		}
	}
	if g.Server.Name() != "" {
		if err := server.Register(g.Server); err != nil {
			return fmt.Errorf("%w %q: %w", ErrRegister, g.Name, err)
		}
	}
	all = append(all, g)
	return nil
}
