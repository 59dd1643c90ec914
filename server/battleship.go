package server

// Battleship listeners (game: battleship): the same connections, lobby,
// limits, result log and metrics as submarine listeners, with the Kaisen
// battleship protocol (docs/protocol.md, section Battleship) and the
// classic rules (10x10, the Russian fleet 4,3,3,2,2,2,1,1,1,1).

import (
	"bytes"
	"errors"
	"fmt"
	"net"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// Games a listener can serve (ListenerConfig.Game).
const (
	GameSubmarine  = submarine.Name
	GameBattleship = battleship.Name
)

// DialectBattleship is Result.Dialect for battleship games.
const DialectBattleship = "battleship"

// DefaultBattleshipHouse is the house AI of a battleship listener whose
// opponent is not set.
const DefaultBattleshipHouse = "gridbot"

// bsSetup is a battleship listener's rules and house AI.
type bsSetup struct {
	rules *battleship.Rules
	house bsplayers.Factory // nil for pair listeners
}

// hasHouse reports whether clients of the listener play a house AI.
func (st *setup) hasHouse() bool {
	return st.house != nil || st.contractHouse || (st.bs != nil && st.bs.house != nil) || (st.ab != nil && st.ab.house != nil)
}

// fleetChecks checks the settings of a listener of a game on the classic
// Battleship board (battleship, abilities) that every such game shares; bad
// adds one more error to the list.
func (l ListenerConfig) fleetChecks(game string) (errs *[]error, bad func(format string, args ...any)) {
	errs, bad = l.commonChecks()
	if l.Dialect != DefaultDialect {
		bad("dialect %q: %s has one wire format; leave dialect unset", l.Dialect, game)
	}
	if l.Width != 5 || l.Height != 5 || l.Rocks != "" || l.Rounded {
		bad("%s plays the classic 10x10 board; leave width, height, rocks and rounded unset", game)
	}
	if l.Games != 1 && game != GameBattleship {
		bad("games is %d: %s plays one game per connection", l.Games, game)
	}
	l.checkFirst(bad)
	if game != GameAbilities && l.abilitiesSet() {
		bad("abilities settings on a %s listener; leave abilities unset", game)
	}
	return errs, bad
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
	if l.Opponent == OpponentPair {
		if l.HouseConfig != "" {
			bad("house_config is set but opponent is %q", OpponentPair)
		}
		return f
	}
	f, err := build(l.Opponent, config.File(l.HouseConfig))
	if err != nil {
		bad("opponent %q: %v (or %q to pair clients)", l.Opponent, err, OpponentPair)
	}
	return f
}

// compileBattleship validates a battleship listener.
func (l ListenerConfig) compileBattleship() (*setup, error) {
	errs, bad := l.fleetChecks(GameBattleship)
	rules := battleship.DefaultRules()
	bs := &bsSetup{rules: rules}
	bs.house = houseAI(l, bad, func(name string, load func(any) error) (bsplayers.Factory, error) {
		return bsplayers.New(name, rules, load)
	})
	if err := errors.Join(*errs...); err != nil {
		return nil, err
	}
	// The listener log line prints the board from Width and Height.
	l.Width, l.Height = rules.Board.Width(), rules.Board.Height()
	return &setup{cfg: l, dialect: protocol.Classic, bs: bs}, nil
}

// newBSTurns is the battleship game of the pairing m on the turn loop
// (server/turns.go): the listener's rules and house AI (read now: a test
// may set it after the listener is built), the server side of the
// Battleship wire, the replay and the public view.
func newBSTurns(m *match) *turns[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event] {
	bs := m.st.bs
	rules := bs.rules
	def := &served[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
		dialect: DialectBattleship,
		rules:   rules,
		wire:    bswire.Server{Rules: rules},
		record: func(w *bytes.Buffer, h replayHeader) gameRecord[battleship.Placement, grid.Cell, battleship.Step] {
			return bsRecord{bsrecord.NewWriter(w, rules, bsrecord.Header{Seed: h.Seed, First: h.First, Players: h.Players})}
		},
		view: func(g *battleship.Game) game.View[battleship.Step] { return battleship.NewPublicView(g) },
	}
	if bs.house != nil {
		def.house = bsplayers.Adapt(bs.house)
	}
	return newTurns(m, def)
}

// fleetWriter is the part of a replay writer that the games on a
// Battleship board share: their placements and their result line.
type fleetWriter interface {
	Placement(seat int, p battleship.Placement)
	NoPlacement(seat int)
	Result(r bsrecord.Result)
	Flush() error
}

// fleetPlacement records placement p of seat as received (none: a seat
// that sent nothing decodable, or whose house AI crashed placing).
func fleetPlacement(w fleetWriter, seat int, p battleship.Placement) {
	if p == nil {
		w.NoPlacement(seat)
	} else {
		w.Placement(seat, p)
	}
}

// fleetResult writes the result line of a game on a Battleship board.
func fleetResult(w fleetWriter, outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	w.Result(bsrecord.Result{Outcome: outcome, Winner: winner, Shots: c.Shots, Forfeits: ff})
}

// bsRecord is a battleship game's replay (gameRecord).
type bsRecord struct{ *bsrecord.Writer }

func (r bsRecord) Placement(seat int, p battleship.Placement) {
	fleetPlacement(r.Writer, seat, p)
}

func (r bsRecord) Action(n, _ int, _ grid.Cell, st *battleship.Step, err error, actor any) {
	r.Shot(n, st, err, explanation(actor))
}

func (r bsRecord) Result(outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	fleetResult(r.Writer, outcome, winner, c, ff)
}
