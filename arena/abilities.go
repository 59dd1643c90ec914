package arena

import (
	"fmt"
	"log/slog"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/replay"
)

// AbilitiesConfig describes the sides and options of the abilities variant
// in YAML (the board and fleet are the battleship section's).
type AbilitiesConfig struct {
	// Sides are seat 0's and seat 1's sides, "ai" or "humans". Default
	// [ai, humans].
	Sides []string `mapstructure:"sides"`
	// Options are the rules options (docs/abilities.md); default all off.
	Options abilities.Options `mapstructure:"options"`
	// AlternateFirst: seat 1 acts first in games 2, 3, 6, 7, ... (index/2
	// odd), so that over every four games each AI plays each side both
	// first and second. Default false: seat 0 always acts first.
	AlternateFirst bool `mapstructure:"alternate_first"`
}

// Build returns the abilities rules on base.
func (ac AbilitiesConfig) Build(base *battleship.Rules) (*abilities.Rules, error) {
	sides := [2]abilities.Side{abilities.AI, abilities.Humans}
	if len(ac.Sides) != 0 {
		if len(ac.Sides) != 2 {
			return nil, fmt.Errorf("arena: abilities: sides %v: want two, seat 0's then seat 1's", ac.Sides)
		}
		for i, s := range ac.Sides {
			side, err := abilities.ParseSide(s)
			if err != nil {
				return nil, fmt.Errorf("arena: abilities: %w", err)
			}
			sides[i] = side
		}
	}
	return abilities.NewRules(base, sides[0], sides[1], ac.Options)
}

// AbilitiesEntrant is one player of an abilities match.
type AbilitiesEntrant struct {
	Name    string
	Factory abplayers.Factory
}

// Abilities is the Family of the abilities variant of Battleship: seat 0
// acts first (unless AlternateFirst); P1 takes seat 0 in even games and so plays seat 0's side
// there, seat 1's in odd games. A seat that places an invalid fleet, plays
// an illegal action or panics forfeits. GameResult.Shots holds the cells
// fired at by each seat, Actions every action (answers included).
// Replays are written by replay.AbilitiesWriter.
type Abilities struct {
	Rules  *abilities.Rules
	P1, P2 AbilitiesEntrant
	// AlternateFirst lets seat 1 act first when Deal.Index/2 is odd.
	AlternateFirst bool
}

var _ Family = (*Abilities)(nil)

// Game implements Family.
func (a *Abilities) Game() string { return abilities.Name }

// Players implements Family.
func (a *Abilities) Players() (p1, p2 string) { return a.P1.Name, a.P2.Name }

// NewTable implements Family.
func (a *Abilities) NewTable(log *slog.Logger) Table {
	t := &abTable{fam: a}
	t.init(log)
	return t
}

type abTable struct {
	seatRands
	fam *Abilities
}

// Play implements Table.
func (t *abTable) Play(d Deal) (GameResult, error) {
	rules := t.fam.Rules
	f, seats := seatPlayers(d, t.fam.P1.Name, t.fam.P2.Name, t.fam.P1.Factory, t.fam.P2.Factory)
	first := 0
	if t.fam.AlternateFirst && d.Index/2%2 == 1 {
		first = 1
	}
	var (
		rec *replay.AbilitiesWriter
		rr  fleetRecorder // nil when there is no replay
	)
	if d.Replay != nil {
		rec = replay.NewAbilitiesWriter(d.Replay, rules, replay.AbilitiesHeader{Seed: d.Seed, Match: d.matchRef(), Players: seats, First: first})
		rr = rec
	}
	res := GameResult{Index: d.Index, Seed: d.Seed, P1Seat: d.P1Seat, Winner: -1}
	var ff forfeits
	p, pl := placeFleets(&t.seatRands, d.Seed, func(s int) abplayers.Player { return f[s](t.rng[s], s) }, rules.Base.ValidatePlacement, rr, &ff)
	if ff.any() {
		res.Winner = ff.walkover()
		return finishFleetGame(&res, &ff, rr)
	}
	g, err := abilities.NewGame(rules, pl[0], pl[1], first)
	if err != nil { // placements were validated above
		panic(fmt.Sprintf("arena: abilities: start game: %v", err))
	}
	for n := 1; g.Status() == game.Running; n++ {
		s := g.ToAct()
		var a abilities.Action
		if msg := t.guard(s, func() { a = p[s].Act(g.Pending()) }); msg != "" {
			ff.set(s, replay.ForfeitPanic, "panic: "+msg)
			res.Winner = 1 - s
			break
		}
		st, err := g.Apply(a)
		if rec != nil {
			rec.Action(n, s, a, err != nil)
		}
		res.Actions++
		if err != nil {
			ff.set(s, replay.ForfeitIllegal, err.Error())
			res.Winner = 1 - s
			break
		}
		for v := range 2 {
			if st.Views[v].Silent {
				continue
			}
			if msg := t.guard(v, func() { p[v].Observe(st.Views[v]) }); msg != "" && g.Status() == game.Running {
				ff.set(v, replay.ForfeitPanic, "panic: "+msg)
				res.Winner = 1 - v
				break
			}
		}
		if ff.any() {
			break
		}
		res.Winner = g.Winner()
	}
	res.Shots = [2]int{g.Shots(0), g.Shots(1)}
	return finishFleetGame(&res, &ff, rr)
}
