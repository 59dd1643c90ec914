package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// Games a listener can serve (ListenerConfig.Game): the real games, which
// the registry (package games) registers with Register from their Defs,
// named here for the code that configures their listeners (the submarine
// game is the default, ListenerConfig.Game ""); a game registered with
// Register has the house AI of its Def and its name as its Result.Dialect
// (a game with its own listener settings, Contract.Listen: the name of the
// listener's dialect).
const (
	GameSubmarine  = "submarine" // game/submarine's Name
	GameBattleship = battleship.Name
	GameAbilities  = abilities.Name

	DialectBattleship = GameBattleship // Result.Dialect of battleship games
	DialectAbilities  = GameAbilities  // Result.Dialect of abilities games

	DefaultBattleshipHouse = "gridbot"    // the house AI of a battleship listener without an opponent
	DefaultAbilitiesHouse  = "ab-density" // the house AI of an abilities listener without an opponent
)

// Game is one game as the server serves it (ListenerConfig.Game): the
// house AI of its listeners without an opponent and the step that
// validates a listener and builds its setup (with the play step of its
// pairings). Every game is on the contract (package game), built by
// NewGame from its descriptor and registered with Register: this package
// serves no game by itself.
type Game struct {
	name    string
	house   string // the opponent when unset ("" = the config default: pair clients)
	compile func(l ListenerConfig) (*setup, error)
}

// Name is the game's name (ListenerConfig.Game).
func (g Game) Name() string { return g.name }

// games are the games a listener can serve, in the order they were
// registered (the games registry registers the submarine game first); the
// registry checks that the server serves all of its games with a network
// host.
var games []Game

// ErrRegister is wrapped by Register's errors.
var ErrRegister = errors.New("server: register game")

// Register adds g to the games a listener can serve, after those
// registered before. Call it before any server is configured (from an init function,
// or through the games registry's Register): it is not safe for
// concurrent use. It fails on a game built without NewGame and on a name
// already registered.
func Register(g Game) error {
	if g.name == "" || g.compile == nil {
		return fmt.Errorf("%w: not built by NewGame", ErrRegister)
	}
	if _, ok := gameOf(g.name); ok {
		return fmt.Errorf("%w %q: registered twice", ErrRegister, g.name)
	}
	games = append(games, g)
	return nil
}

// Games lists the games a listener can serve.
func Games() []string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.name
	}
	return names
}

// gameOf is the game called name ("" = the submarine game).
func gameOf(name string) (Game, bool) {
	if name == "" {
		name = GameSubmarine
	}
	i := slices.IndexFunc(games, func(g Game) bool { return g.name == name })
	if i < 0 {
		return Game{}, false
	}
	return games[i], true
}

// DefaultHouse is the house AI a listener of game plays when its opponent
// is not set ("" = none: pair clients, or an unknown game).
func DefaultHouse(game string) string {
	g, _ := gameOf(game)
	return g.house
}

// Contract describes a game on the contract (package game) to the server:
// what NewGame needs to serve it with the one turn loop. R is the game's
// rules type. A listener of the game has the settings every game has
// (address, opponent, house_config, games, first, humans) and those of the
// game (Settings), or the game's own listener settings (Listen: the
// submarine game's dialect and board).
type Contract[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	// Name is the game's name (ListenerConfig.Game, the replay header's
	// "game").
	Name string
	// House is the house AI of a listener whose opponent is not set (""
	// = pair clients).
	House string
	// Rules are the rules a listener of the game plays.
	Rules func() (R, error)
	// Settings, when set, are the rules of listener l instead, from its
	// settings of the game (its section of ListenerConfig, the abilities
	// section for the abilities game): an error says what is wrong with
	// them. Without it, a listener with abilities settings is refused.
	Settings func(l ListenerConfig) (R, error)
	// AI builds the house AI called name for rules, its settings overlaid
	// by load (house_config); an unknown name is an error.
	AI func(name string, rules R, load func(any) error) (game.Factory[P, A, O], error)
	// Listen, when set, is what listener l plays, from the listener's
	// settings of the game (the submarine game: its dialect and board, the
	// series it may play), instead of Rules, Settings and Wire: its rules,
	// its wire dialect (the end lines, Result.Dialect, the log line) and
	// the server side of its wire codec per pairing. Only a game with a
	// Listen takes the dialect and board settings (Dialect, Width, Height,
	// Rocks, Rounded; ListenerConfig.Board builds the board). Its error
	// joins every problem with the settings.
	Listen func(l ListenerConfig) (Listening[R, P, A, O], error)
	// Wire makes the server side of the game's wire codec for one pairing
	// (unused with Listen). A codec that is a game.Hooked adds its hooks
	// to the turn loop, one that is a game.Forfeits tells faults as
	// actions.
	Wire func(rules R) game.ServerCodec[P, A, O]
	// View, when set, is the public view of a game in play, which the
	// server's spectators (Server.Watch, Feed) see; nil: they are told
	// only how each game ended (Spectator.Finished).
	View func(g G) game.View[S]
	// Record, when set, starts a game's replay on w (the server's replay
	// directory gets one file per game); nil: the game writes none. A
	// recorder that is an Outcomes writes the server's outcomes as they
	// are (aborted too).
	Record func(rules R, w io.Writer, h arena.RecordHeader) arena.Recorder[P, A, S]
	// Board, when set, is the size of the board rules play on, which the
	// listener's log line names (nil: width and height, unset).
	Board func(rules R) (width, height int)
}

// Outcomes is a game's replay recorder (Contract.Record) that records how
// a game the server played ended as the server says it: outcome is a
// replay.Outcome* (aborted too, which game.Result cannot say), c the
// rules' count of the game, ff its forfeits. Without it an aborted game
// reads as a draw.
type Outcomes interface {
	Outcome(outcome string, winner int, c game.Count, ff []replay.Forfeit)
}

// Listening is what one listener of a game with its own listener
// settings plays (Contract.Listen): its rules, its wire dialect and the
// server side of its wire codec, one per pairing (the submarine game's:
// game/submarine/wire's Listener).
type Listening[R, P, A, O any] interface {
	Rules() R
	Dialect() protocol.Dialect
	Server() game.ServerCodec[P, A, O]
}

// NewGame returns the server's game that c describes, for Register: its
// listeners validated with the settings every game shares and built with
// c's rules and house AI, its pairings played by the turn loop with c's
// wire codec, view and record.
func NewGame[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](c Contract[R, G, P, A, S, O]) Game {
	return Game{name: c.Name, house: c.House, compile: func(l ListenerConfig) (*setup, error) { return compileContract(l, c) }}
}

// compileContract validates listener l of the game c describes and builds
// its setup: the rules, the house AI and the play step of its pairings.
func compileContract[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](l ListenerConfig, c Contract[R, G, P, A, S, O]) (*setup, error) {
	errs, bad := l.commonChecks()
	l.checkFirst(bad)
	if c.Listen == nil && l.Dialect != DefaultDialect {
		bad("dialect %q: %s has one wire format; leave dialect unset", l.Dialect, c.Name)
	}
	if c.Listen == nil && !l.PlainBoard() {
		bad("%s plays its own board; leave width, height, rocks and rounded unset", c.Name)
	}
	if l.Games < 1 {
		bad("games is %d, want at least 1", l.Games)
	}
	lis, err := contractListening(l, c)
	if err != nil {
		if c.Listen != nil {
			badEach(bad, err) // one error per problem, as the other checks give them
		} else {
			bad("%w", err)
		}
		return nil, errors.Join(*errs...)
	}
	rules := lis.Rules()
	house := houseAI(l, bad, func(name string, load func(any) error) (game.Factory[P, A, O], error) {
		return c.AI(name, rules, load)
	})
	if err := errors.Join(*errs...); err != nil {
		return nil, err
	}
	def := &served[G, P, A, S, O]{dialect: c.Name, rules: rules, house: house, view: c.View}
	if c.Listen != nil {
		def.dialect = lis.Dialect().String()
	}
	if c.Record != nil {
		def.record = func(w *bytes.Buffer, h arena.RecordHeader) arena.Recorder[P, A, S] { return c.Record(rules, w, h) }
	}
	if c.Board != nil { // the listener log line prints the board from Width and Height
		l.Width, l.Height = c.Board(rules)
	}
	st := &setup{cfg: l, dialect: lis.Dialect(), hasHouse: house != nil, served: def}
	st.play = func(m *match) func(context.Context, int) (*Result, []byte) {
		return newTurns(m, def.pairing(lis.Server())).play
	}
	return st, nil
}

// pairing is the game as one pairing plays it: def with the pairing's
// wire codec w, and what w tells as actions when it is a game.Forfeits.
func (def *served[G, P, A, S, O]) pairing(w game.ServerCodec[P, A, O]) *served[G, P, A, S, O] {
	d := *def
	d.wire = w
	if f, ok := w.(game.Forfeits[G, P, A, O]); ok {
		inv := f.Invalid()
		d.invalid, d.forfeits = &inv, f
	}
	return &d
}

// badEach adds each of the errors err joins (or err) with bad.
func badEach(bad func(format string, args ...any), err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			bad("%w", e)
		}
		return
	}
	bad("%w", err)
}

// contractListening is what a listener l of the game c describes plays:
// c.Listen's listening, or else the rules of contractRules in the one
// dialect, with c's wire.
func contractListening[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](l ListenerConfig, c Contract[R, G, P, A, S, O]) (Listening[R, P, A, O], error) {
	if c.Listen != nil {
		if l.abilitiesSet() {
			return nil, fmt.Errorf("abilities settings on a %s listener; leave abilities unset", c.Name)
		}
		return c.Listen(l)
	}
	rules, err := contractRules(l, c)
	if err != nil {
		return nil, err
	}
	return oneDialect[R, P, A, O]{rules: rules, wire: c.Wire}, nil
}

// oneDialect is the Listening of a game with one wire format and no
// listener settings of its own: the classic framing, c.Wire of its rules.
type oneDialect[R, P, A, O any] struct {
	rules R
	wire  func(rules R) game.ServerCodec[P, A, O]
}

func (o oneDialect[R, P, A, O]) Rules() R                          { return o.rules }
func (oneDialect[R, P, A, O]) Dialect() protocol.Dialect           { return protocol.Classic }
func (o oneDialect[R, P, A, O]) Server() game.ServerCodec[P, A, O] { return o.wire(o.rules) }

// contractRules are the rules a listener l of the game c describes plays:
// those of its settings (Contract.Settings), or else c.Rules, the
// abilities section then unset.
func contractRules[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](l ListenerConfig, c Contract[R, G, P, A, S, O]) (R, error) {
	if c.Settings != nil {
		return c.Settings(l)
	}
	if l.abilitiesSet() {
		var zero R
		return zero, fmt.Errorf("abilities settings on a %s listener; leave abilities unset", c.Name)
	}
	rules, err := c.Rules()
	if err != nil {
		return rules, fmt.Errorf("rules: %w", err)
	}
	return rules, nil
}

// recordResult records on w how a game the server played ended: outcome
// is a replay.Outcome* (aborted too), c the rules' count of the game, ff
// its forfeits; as they are when w is an Outcomes, else as a game.Result,
// in which an aborted game reads as a draw.
func recordResult[P, A, S any](w arena.Recorder[P, A, S], outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	if o, ok := w.(Outcomes); ok {
		o.Outcome(outcome, winner, c, ff)
		return
	}
	res := game.Result{Winner: -1, Count: c, Started: true}
	if outcome == replay.OutcomeWin {
		res.Winner = winner
	}
	for _, f := range ff {
		if f.Seat == 0 || f.Seat == 1 {
			res.Forfeits[f.Seat] = game.Forfeit{Kind: f.Kind, Reason: f.Reason}
		}
		if f.Kind == replay.ForfeitPlacement {
			res.Started = false
		}
	}
	w.Result(&res)
}

// commonChecks starts the checks of a listener of a game on the contract:
// the error list, bad adding one more error to it, and the address
// checked.
func (l ListenerConfig) commonChecks() (errs *[]error, bad func(format string, args ...any)) {
	errs = new([]error)
	bad = func(format string, args ...any) {
		*errs = append(*errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if _, _, err := net.SplitHostPort(l.Address); err != nil {
		bad("address %q: %v", l.Address, err)
	}
	return errs, bad
}

// checkFirst refuses an unknown first-player policy (firstProblem).
func (l ListenerConfig) checkFirst(bad func(format string, args ...any)) {
	if p := firstProblem(l.First); p != "" {
		bad("%s", p)
	}
}

// abilitiesSet reports whether the listener has abilities settings.
func (l ListenerConfig) abilitiesSet() bool {
	return len(l.Abilities.Sides) > 0 || l.Abilities.Options != (abilities.Options{}) || l.Abilities.AlternateFirst
}

// houseAI builds the house AI of listener l with build (from the AI's
// name and the loader of house_config), or nil for a pair listener; a
// failure (an unknown AI, bad weights, weights without a house AI) goes to
// bad.
func houseAI[F any](l ListenerConfig, bad func(format string, args ...any), build func(name string, load func(any) error) (F, error)) F {
	var f F
	if p := l.houseSeatProblem(); p != "" {
		bad("%s", p)
	}
	if !l.HouseIsAI() {
		if l.HouseConfig != "" && l.HouseSeat == nil {
			bad("house_config is set but opponent is %q", OpponentPair)
		}
		return f
	}
	f, err := build(l.Opponent, l.houseLoader())
	if err != nil {
		bad("opponent %q: %v (or %q to pair clients)", l.Opponent, err, OpponentPair)
	}
	return f
}
