package server

// Abilities listeners (game: abilities): the battleship listeners'
// connections, handshake, limits, result log and replays with the
// abilities protocol (docs/protocol.md, section "Abilities"): a hello line
// naming the protocol version, the seat, the sides and the options
// instead of the greeting; ability actions and defender's answers; one
// result line per action telling each seat its view of it.

import (
	"bytes"
	"errors"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// GameAbilities is the abilities variant of Battleship (ListenerConfig.Game).
const GameAbilities = abilities.Name

// DialectAbilities is Result.Dialect for abilities games.
const DialectAbilities = "abilities"

// DefaultAbilitiesHouse is the house AI of an abilities listener whose
// opponent is not set.
const DefaultAbilitiesHouse = "ab-density"

// abSetup is an abilities listener's rules and house AI.
type abSetup struct {
	rules *abilities.Rules
	house abplayers.Factory // nil for pair listeners
}

// compileAbilities validates an abilities listener.
func (l ListenerConfig) compileAbilities() (*setup, error) {
	errs, bad := l.fleetChecks(GameAbilities)
	if l.Abilities.AlternateFirst {
		bad("abilities.alternate_first is for matches; a listener says who acts first with first")
	}
	rules, err := l.Abilities.Build(battleship.DefaultRules())
	if err != nil {
		bad("abilities: %v", err)
		rules = abilities.DefaultRules()
	}
	ab := &abSetup{rules: rules}
	ab.house = houseAI(l, bad, func(name string, load func(any) error) (abplayers.Factory, error) {
		return abplayers.New(name, rules, load)
	})
	if err := errors.Join(*errs...); err != nil {
		return nil, err
	}
	// The listener log line prints the board from Width and Height.
	l.Width, l.Height = rules.Base.Board.Width(), rules.Base.Board.Height()
	return &setup{cfg: l, dialect: protocol.Classic, ab: ab, hasHouse: ab.house != nil}, nil
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

// abTurns is the turn loop of an abilities game.
type abTurns = turns[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]

// newABTurns is the abilities game of the pairing m on the turn loop
// (server/turns.go; one game per connection): the listener's rules and
// house AI, the server side of the abilities wire, the replay and the
// constant shape's hooks (abHooks).
func newABTurns(m *match) *abTurns {
	ab := m.st.ab
	rules := ab.rules
	w := abwire.Server{Rules: rules}
	def := &served[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]{
		dialect: DialectAbilities,
		rules:   rules,
		wire:    w,
		record: func(b *bytes.Buffer, h replayHeader) gameRecord[battleship.Placement, abilities.Action, abilities.Step] {
			return abRecord{abrecord.NewWriter(b, rules, abrecord.Header{Seed: h.Seed, First: h.First, Players: h.Players})}
		},
		view: func(g *abilities.Game) game.View[abilities.Step] { return abilities.NewPublicView(g) },
		hooks: func(g *abilities.Game) turnHooks[abilities.Action, abilities.Step] {
			return &abHooks{g: g, wire: w, sched: abwire.NewConfirms(rules)}
		},
	}
	if ab.house != nil {
		def.house = abplayers.Adapt(ab.house)
	}
	return newTurns(m, def)
}

// abRecord is an abilities game's replay (gameRecord).
type abRecord struct{ *abrecord.Writer }

func (r abRecord) Placement(seat int, p battleship.Placement) {
	fleetPlacement(r.Writer, seat, p)
}

func (r abRecord) Action(n, seat int, a abilities.Action, _ *abilities.Step, err error, _ any) {
	r.Writer.Action(n, seat, a, err != nil, nil)
}

func (r abRecord) Result(outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	fleetResult(r.Writer, outcome, winner, c, ff)
}

// abHooks are the abilities game's turn hooks: the constant shape of
// protocol version 2 (docs/abilities.md). After its own move a client
// sends its next action at once, without "your turn" (a hidden move costs
// no round trip); a volley about to be told to its shooter is preceded by
// the defender's confirms of the cells it was not asked about
// (abwire.Confirms); the game's action count (Result.Actions) is the
// actions applied but hidden moves, plus the shots confirmed, so that it
// tells nothing hidden (a spent false miss is one answer where an unspent
// one is a confirm).
type abHooks struct {
	g     *abilities.Game
	wire  abwire.Server
	sched *abwire.Confirms
}

func (h *abHooks) before(a abilities.Action) { h.sched.Answered(h.g.Pending(), a) }

func (h *abHooks) shown(mv int, a abilities.Action, st *abilities.Step, err error) int {
	if err != nil || a.Kind != abilities.Move || !st.Views[1-mv].Silent {
		return 1
	}
	return 0
}

func (h *abHooks) cont(a abilities.Action) bool { return h.wire.Continues(a) }

func (h *abHooks) confirms(st *abilities.Step) (int, [][]byte) {
	d, cells := h.sched.Told(*st)
	var lines [][]byte
	for _, c := range cells {
		lines = append(lines, h.wire.ConfirmLine(c))
	}
	return d, lines
}

func (h *abHooks) checkConfirm(a abilities.Action) error { return h.wire.CheckConfirm(a) }
