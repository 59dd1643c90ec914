package arena

import (
	"fmt"
	"log/slog"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// GameBattleship is the family name of Battleship matches (Summary.Game and
// the replay header's "game").
const GameBattleship = battleship.Name

// BattleshipEntrant is one player of a Battleship match: its name and the
// factory that makes a fresh instance for every game.
type BattleshipEntrant struct {
	Name    string
	Factory bsplayers.Factory
}

// Battleship is the classic Battleship Family: P1 and P2 shoot at each
// other's fleets under Rules; the first to sink the whole enemy fleet wins.
// Seat 0 shoots first (Match puts P1 in seat 0 in even games), a new hit or
// kill gives another shot. A player that places an invalid fleet, fires off
// the board or at a rock, or panics forfeits the game. GameResult.Shots
// holds the shots fired by each seat.
//
// Replays (Deal.Replay) are JSON lines written by replay.BattleshipWriter,
// one object per line, cells written [row, col] as on the Battleship wire:
//
//	{"type":"header","game":"battleship","version":V,"seed":S,"match":{"seed":M,"index":I},
//	 "rules":{"width":10,"height":10,"rocks":[[r,c],...],"fleet":[4,3,...],"draw_limit":400},
//	 "players":[{"seat":0,"name":"density","role":"p1"},{"seat":1,...}],"first":0}
//	{"type":"placement","seat":0,"ships":[[[r,c],...],...]}   (one per seat; null when it panicked)
//	{"type":"shot","n":1,"seat":0,"at":[r,c],"outcome":"miss"|"hit"|"kill",
//	 "sunk":[[r,c],...],"repeat":true,"again":true,"decision":{...}}
//	{"type":"result","outcome":"win"|"draw","winner":0,"shots":[a,b],
//	 "forfeits":[{"seat":1,"kind":"illegal"|"placement"|"panic","reason":"..."}]}
//
// "sunk" (kill only), "repeat", "again" and "decision" (with Explain, for
// players implementing explain.Explainer) are omitted when empty. An illegal
// shot has "illegal":true and, off the board, "cell" (the raw index) instead
// of "at". winner is -1 on a draw. replay.ReadBattleship reads them,
// replay.VerifyBattleship checks them against the rules and kaisen replay
// draws them.
type Battleship struct {
	Rules  *battleship.Rules
	P1, P2 BattleshipEntrant
}

var _ Family = (*Battleship)(nil)

// Game implements Family.
func (b *Battleship) Game() string { return GameBattleship }

// Players implements Family.
func (b *Battleship) Players() (p1, p2 string) { return b.P1.Name, b.P2.Name }

// NewTable implements Family.
func (b *Battleship) NewTable(log *slog.Logger) Table {
	t := &bsTable{fam: b}
	t.init(log)
	return t
}

// Validate checks that the family can play.
func (b *Battleship) Validate() error {
	return validateFamily(b.Game(), b.Rules, b.P1.Factory != nil && b.P2.Factory != nil)
}

// bsTable plays Battleship games one after another for one worker.
type bsTable struct {
	seatRands
	fam  *Battleship
	keep keeper
}

// Play implements Table.
func (t *bsTable) Play(d Deal) (GameResult, error) {
	rules := t.fam.Rules
	f, seats := seatPlayers(d, t.fam.P1.Name, t.fam.P2.Name,
		keep(&t.keep, d, 0, t.fam.P1.Factory), keep(&t.keep, d, 1, t.fam.P2.Factory))
	var (
		rec *replay.BattleshipWriter
		rr  fleetRecorder // nil when there is no replay
	)
	if d.Replay != nil {
		rec = replay.NewBattleshipWriter(d.Replay, rules, replay.BattleshipHeader{Seed: d.Seed, Match: d.matchRef(), Players: seats})
		rr = rec
	}
	res := GameResult{Index: d.Index, Seed: d.Seed, P1Seat: d.P1Seat, Winner: -1}
	var ff forfeits
	p, pl := placeFleets(&t.seatRands, d.Seed, func(s int) bsplayers.Player { return f[s](t.rng[s]) }, rules.ValidatePlacement, rr, &ff)
	if ff.any() {
		// The game never starts: a seat that could not place loses; both: draw.
		res.Winner = ff.walkover()
		t.keep.end(&t.seatRands, d, &res)
		return finishFleetGame(&res, &ff, rr)
	}
	g, err := battleship.NewGame(rules, pl[0], pl[1], 0)
	if err != nil { // placements were validated above
		panic(fmt.Sprintf("arena: battleship: start game: %v", err))
	}
	ex := explainers(&p, d.Explain && rec != nil)
	for n := 1; g.Status() == game.Running; n++ {
		s := g.ToAct()
		var c grid.Cell
		if msg := t.guard(s, func() { c = p[s].Shoot() }); msg != "" {
			g.Forfeit(s)
			ff.set(s, replay.ForfeitPanic, "panic: "+msg)
			break
		}
		var dec *explain.Decision
		if ex[s] != nil {
			if msg := t.guard(s, func() { v := explain.Full(ex[s]); dec = &v }); msg != "" {
				g.Forfeit(s)
				ff.set(s, replay.ForfeitPanic, "panic: "+msg)
				break
			}
		}
		st, err := g.Apply(c)
		if err != nil {
			ff.set(s, replay.ForfeitIllegal, err.Error())
		}
		if rec != nil {
			rec.Shot(n, &st, err, dec)
		}
		for _, o := range [2]struct {
			seat int
			ev   battleship.Event
		}{{s, st.Shooter}, {1 - s, st.Defender}} {
			if msg := t.guard(o.seat, func() { p[o.seat].Observe(o.ev) }); msg != "" {
				if g.Status() == game.Running {
					g.Forfeit(o.seat)
					ff.set(o.seat, replay.ForfeitPanic, "panic: "+msg)
				} else {
					t.log.Warn("player panicked after the game ended; the result stands", "seat", o.seat, "panic", msg)
				}
				break
			}
		}
	}
	res.Winner = g.Winner()
	res.Shots = [2]int{g.Shots(0), g.Shots(1)}
	res.Actions = res.Shots[0] + res.Shots[1]
	t.keep.end(&t.seatRands, d, &res)
	return finishFleetGame(&res, &ff, rr)
}

// BattleshipReplayRules is the "rules" object of a Battleship replay header.
//
// Deprecated: use replay.BattleshipRules.
type BattleshipReplayRules = replay.BattleshipRules
