package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"slices"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// Games a listener can serve (ListenerConfig.Game): the submarine game,
// served by this package, and the real games the registry (package games)
// registers with Register from their Defs, named here for the code that
// configures their listeners; a game registered with Register has its
// name as its Result.Dialect and the house AI of its Def.
const (
	GameSubmarine  = submarine.Name
	GameBattleship = battleship.Name
	GameAbilities  = abilities.Name

	DialectBattleship = GameBattleship // Result.Dialect of battleship games
	DialectAbilities  = GameAbilities  // Result.Dialect of abilities games

	DefaultBattleshipHouse = "gridbot"    // the house AI of a battleship listener without an opponent
	DefaultAbilitiesHouse  = "ab-density" // the house AI of an abilities listener without an opponent
)

// Game is one game as the server serves it (ListenerConfig.Game): the
// house AI of its listeners without an opponent, the step that validates
// a listener and builds its setup, and the play step of one pairing. The
// submarine game is registered in this package (submarine.go, config.go);
// every other game on the contract is built by NewGame from its descriptor
// and registered with Register.
type Game struct {
	name    string
	house   string // the opponent when unset ("" = the config default: pair clients)
	compile func(l ListenerConfig) (*setup, error)
	// play is the play step of one pairing (nil: the setup's own, which
	// compile built).
	play func(m *match) func(ctx context.Context, k int) (*Result, []byte)
}

// Name is the game's name (ListenerConfig.Game).
func (g Game) Name() string { return g.name }

// games are the games a listener can serve, the submarine game first; the
// games registry (package games) checks that the server serves all of
// its games with a network host.
var games = []Game{
	{name: GameSubmarine, compile: ListenerConfig.compileSubmarine,
		play: func(m *match) func(context.Context, int) (*Result, []byte) { return newSubTurns(m).play }},
}

// ErrRegister is wrapped by Register's errors.
var ErrRegister = errors.New("server: register game")

// Register adds g to the games a listener can serve, after the built-in
// ones. Call it before any server is configured (from an init function,
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
// game (Settings); the submarine dialect and board settings stay unset.
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
	// OneGame: a listener of the game plays one game per connection (games
	// must be 1); else a listener with games > 1 plays a series on each
	// connection, each game greeted with "roundK.".
	OneGame bool
	// AI builds the house AI called name for rules, its settings overlaid
	// by load (house_config); an unknown name is an error.
	AI func(name string, rules R, load func(any) error) (game.Factory[P, A, O], error)
	// Wire makes the server side of the game's wire codec for one pairing.
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
	if l.Dialect != DefaultDialect {
		bad("dialect %q: %s has one wire format; leave dialect unset", l.Dialect, c.Name)
	}
	if l.Width != 5 || l.Height != 5 || l.Rocks != "" || l.Rounded {
		bad("%s plays its own board; leave width, height, rocks and rounded unset", c.Name)
	}
	switch {
	case l.Games < 1:
		bad("games is %d, want at least 1", l.Games)
	case l.Games > 1 && c.OneGame:
		bad("games is %d: %s plays one game per connection", l.Games, c.Name)
	}
	rules, err := contractRules(l, c)
	if err != nil {
		bad("%w", err)
		return nil, errors.Join(*errs...)
	}
	house := houseAI(l, bad, func(name string, load func(any) error) (game.Factory[P, A, O], error) {
		return c.AI(name, rules, load)
	})
	if err := errors.Join(*errs...); err != nil {
		return nil, err
	}
	def := &served[G, P, A, S, O]{dialect: c.Name, rules: rules, house: house, view: c.View}
	if c.Record != nil {
		def.record = func(w *bytes.Buffer, h replayHeader) gameRecord[P, A, S] {
			return &contractRecord[P, A, S]{w: c.Record(rules, w, arena.RecordHeader{Seed: h.Seed, First: h.First, Players: h.Players})}
		}
	}
	if c.Board != nil { // the listener log line prints the board from Width and Height
		l.Width, l.Height = c.Board(rules)
	}
	st := &setup{cfg: l, dialect: protocol.Classic, hasHouse: house != nil, served: def}
	st.play = func(m *match) func(context.Context, int) (*Result, []byte) {
		d := *def // one wire codec per pairing
		d.wire = c.Wire(rules)
		return newTurns(m, &d).play
	}
	return st, nil
}

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

// contractRecord is the replay of a game described by a Contract
// (gameRecord), written by the game's own arena.Recorder. An aborted game
// reads as a draw in it (game.Result has no aborted outcome).
type contractRecord[P, A, S any] struct{ w arena.Recorder[P, A, S] }

func (r *contractRecord[P, A, S]) Placement(seat int, p P) {
	r.w.Placement(seat, p, !reflect.ValueOf(&p).Elem().IsZero())
}

func (r *contractRecord[P, A, S]) Action(n, seat int, a A, st *S, err error, actor any) {
	r.w.Action(n, seat, a, st, err, explanation(actor))
}

func (r *contractRecord[P, A, S]) Result(outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	if o, ok := r.w.(Outcomes); ok {
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
	r.w.Result(&res)
}

func (r *contractRecord[P, A, S]) Flush() error { return r.w.Flush() }

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
	if !l.houseIsAI() {
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
