package arena

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// GameBattleship is the family name of Battleship matches (Summary.Game and
// the replay header's "game").
const GameBattleship = "battleship"

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
// players implementing players.Explainer) are omitted when empty. An illegal
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
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := &bsTable{fam: b, log: log}
	for s := range 2 {
		t.rng[s] = rand.New(&t.pcg[s])
	}
	return t
}

// Validate checks that the family can play.
func (b *Battleship) Validate() error {
	var errs []error
	if b.Rules == nil {
		errs = append(errs, errors.New("arena: battleship: no rules"))
	} else if err := b.Rules.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("arena: battleship: %w", err))
	}
	if b.P1.Factory == nil || b.P2.Factory == nil {
		errs = append(errs, errors.New("arena: battleship: a player has no factory"))
	}
	return errors.Join(errs...)
}

// bsTable plays Battleship games one after another for one worker.
type bsTable struct {
	fam *Battleship
	log *slog.Logger
	pcg [2]rand.PCG
	rng [2]*rand.Rand
}

// guard runs f for seat, turning a panic into a message.
func (t *bsTable) guard(seat int, f func()) (panicMsg string) {
	defer func() {
		if v := recover(); v != nil {
			panicMsg = fmt.Sprint(v)
			if panicMsg == "" {
				panicMsg = "(empty panic value)"
			}
			t.log.Debug("player panicked", "seat", seat, "panic", panicMsg, "stack", string(debug.Stack()))
		}
	}()
	f()
	return ""
}

// Play implements Table.
func (t *bsTable) Play(d Deal) (GameResult, error) {
	rules := t.fam.Rules
	f := [2]bsplayers.Factory{t.fam.P1.Factory, t.fam.P2.Factory}
	seats := [2]replay.SeatInfo{{Seat: 0, Name: t.fam.P1.Name, Role: "p1"}, {Seat: 1, Name: t.fam.P2.Name, Role: "p2"}}
	if d.P1Seat == 1 {
		f[0], f[1] = f[1], f[0]
		seats[0], seats[1] = seats[1], seats[0]
		seats[0].Seat, seats[1].Seat = 0, 1
	}
	var rec *replay.BattleshipWriter
	if d.Replay != nil {
		rec = replay.NewBattleshipWriter(d.Replay, rules, replay.BattleshipHeader{
			Seed: d.Seed, Match: &replay.MatchRef{Seed: d.MatchSeed, Index: d.Index}, Players: seats})
	}
	res := GameResult{Index: d.Index, Seed: d.Seed, P1Seat: d.P1Seat, Winner: -1}
	var (
		p      [2]bsplayers.Player
		pl     [2]battleship.Placement
		kind   [2]string
		reason [2]string
	)
	for s := range 2 {
		t.pcg[s].Seed(d.Seed, seatStream(s))
		if msg := t.guard(s, func() { p[s] = f[s](t.rng[s]); pl[s] = p[s].Place() }); msg != "" {
			p[s], pl[s] = nil, nil
			kind[s], reason[s] = replay.ForfeitPanic, "panic: "+msg
		} else if err := rules.ValidatePlacement(pl[s]); err != nil {
			kind[s], reason[s] = replay.ForfeitPlacement, err.Error()
		}
		if rec != nil {
			if kind[s] == replay.ForfeitPanic {
				rec.NoPlacement(s)
			} else {
				rec.Placement(s, pl[s])
			}
		}
	}
	if kind[0] != "" || kind[1] != "" {
		// The game never starts: a seat that could not place loses; both: draw.
		switch {
		case kind[0] != "" && kind[1] != "":
		case kind[0] != "":
			res.Winner = 1
		default:
			res.Winner = 0
		}
		return t.finish(&res, rec, kind, reason)
	}
	g, err := battleship.NewGame(rules, pl[0], pl[1], 0)
	if err != nil { // placements were validated above
		panic(fmt.Sprintf("arena: battleship: start game: %v", err))
	}
	var ex [2]players.Explainer
	if d.Explain && rec != nil {
		for s := range 2 {
			ex[s], _ = p[s].(players.Explainer)
		}
	}
	for n := 1; g.Status() == battleship.Running; n++ {
		s := g.Turn()
		var c grid.Cell
		if msg := t.guard(s, func() { c = p[s].Shoot() }); msg != "" {
			g.Forfeit(s)
			kind[s], reason[s] = replay.ForfeitPanic, "panic: "+msg
			break
		}
		var dec *players.Decision
		if ex[s] != nil {
			if msg := t.guard(s, func() { v := ex[s].Explain(); dec = &v }); msg != "" {
				g.Forfeit(s)
				kind[s], reason[s] = replay.ForfeitPanic, "panic: "+msg
				break
			}
		}
		st := g.Apply(c)
		if st.Err != nil {
			kind[s], reason[s] = replay.ForfeitIllegal, st.Err.Error()
		}
		if rec != nil {
			rec.Shot(n, &st, dec)
		}
		for _, o := range [2]struct {
			seat int
			ev   battleship.Event
		}{{s, st.Shooter}, {1 - s, st.Defender}} {
			if msg := t.guard(o.seat, func() { p[o.seat].Observe(o.ev) }); msg != "" {
				if g.Status() == battleship.Running {
					g.Forfeit(o.seat)
					kind[o.seat], reason[o.seat] = replay.ForfeitPanic, "panic: "+msg
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
	return t.finish(&res, rec, kind, reason)
}

// finish fills the forfeits, writes the replay's result line and flushes it.
func (t *bsTable) finish(res *GameResult, rec *replay.BattleshipWriter, kind, reason [2]string) (GameResult, error) {
	for s := range 2 {
		res.Forfeit[s] = kind[s] != ""
	}
	res.Reason = joinReasons(reason)
	if rec == nil {
		return *res, nil
	}
	outcome := replay.OutcomeWin
	if res.Winner < 0 {
		outcome = replay.OutcomeDraw
	}
	var forfeits []replay.Forfeit
	for s := range 2 {
		if kind[s] != "" {
			forfeits = append(forfeits, replay.Forfeit{Seat: s, Kind: kind[s], Reason: reason[s]})
		}
	}
	rec.Result(replay.BattleshipResult{Outcome: outcome, Winner: res.Winner, Shots: res.Shots, Forfeits: forfeits})
	return *res, rec.Flush()
}

// BattleshipReplayRules is the "rules" object of a Battleship replay header.
//
// Deprecated: use replay.BattleshipRules.
type BattleshipReplayRules = replay.BattleshipRules
