package arena

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/replay"
)

// What the families' tables share: the players' random streams, who sits
// where, and how forfeits become the GameResult and the replay's forfeits.

// seatRands are a table's log (a panicking player's stack goes there) and
// the two players' random streams, reseeded for every game. It must not be
// copied after init.
type seatRands struct {
	log *slog.Logger
	pcg [2]rand.PCG
	rng [2]*rand.Rand
}

// init sets the log (nil: discard) and the streams.
func (t *seatRands) init(log *slog.Logger) {
	t.log = orDiscard(log)
	for s := range 2 {
		t.rng[s] = rand.New(&t.pcg[s])
	}
}

// reseed starts rng[s] as SeatRand(seed, s).
func (t *seatRands) reseed(seed uint64, s int) {
	t.pcg[s].Seed(seed, seatStream(s))
}

// panicText is the message of a recovered panic value v, never empty (an
// empty message would read as no panic at all).
func panicText(v any) string {
	if msg := fmt.Sprint(v); msg != "" {
		return msg
	}
	return "(empty panic value)"
}

// orDiscard is log, or a logger that discards everything when log is nil.
func orDiscard(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return log
}

// validateFamily checks a family of game: its rules, and that both players
// have a factory (factories).
func validateFamily[R interface {
	*T
	Validate() error
}, T any](game string, rules R, factories bool) error {
	var errs []error
	if rules == nil {
		errs = append(errs, errors.New("arena: "+game+": no rules"))
	} else if err := rules.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("arena: %s: %w", game, err))
	}
	if !factories {
		errs = append(errs, errors.New("arena: "+game+": a player has no factory"))
	}
	return errors.Join(errs...)
}

// seatPlayers puts P1 (named n1, made by f1) and P2 (n2, f2) in their seats
// for deal d: the factories by seat and the replay header's players.
func seatPlayers[F any](d Deal, n1, n2 string, f1, f2 F) ([2]F, [2]replay.SeatInfo) {
	f := [2]F{f1, f2}
	seats := [2]replay.SeatInfo{{Seat: 0, Name: n1, Role: "p1"}, {Seat: 1, Name: n2, Role: "p2"}}
	if d.P1Seat == 1 {
		f[0], f[1] = f[1], f[0]
		seats[0], seats[1] = seats[1], seats[0]
		seats[0].Seat, seats[1].Seat = 0, 1
	}
	return f, seats
}

// matchRef is the game's place in its match, for the replay header.
func (d Deal) matchRef() *replay.MatchRef {
	return &replay.MatchRef{Seed: d.MatchSeed, Index: d.Index, Series: d.Series}
}

// explainers are the players' Explainers (nil for a player that is not one)
// when on, else none.
func explainers[P any](p *[2]P, on bool) (ex [2]explain.Explainer) {
	if on {
		for s := range 2 {
			ex[s], _ = any(p[s]).(explain.Explainer)
		}
	}
	return ex
}

// forfeits are how the seats of a game forfeited: by seat, the replay's
// replay.Forfeit* kind and the reason, "" for a seat that did not.
type forfeits struct {
	kind, reason [2]string
}

// set records that seat s forfeits.
func (f *forfeits) set(s int, kind, reason string) {
	f.kind[s], f.reason[s] = kind, reason
}

// any reports whether a seat forfeits.
func (f *forfeits) any() bool { return f.kind[0] != "" || f.kind[1] != "" }

// walkover is the winner of a game that never started because a seat could
// not place: the other seat, or -1 (a draw) when both could not.
func (f *forfeits) walkover() int {
	switch {
	case f.kind[0] != "" && f.kind[1] != "":
		return -1
	case f.kind[0] != "":
		return 1
	default:
		return 0
	}
}

// fill sets res's forfeits and reason and returns the replay's forfeits.
func (f *forfeits) fill(res *GameResult) []replay.Forfeit {
	var out []replay.Forfeit
	for s := range 2 {
		res.Forfeit[s] = f.kind[s] != ""
		if f.kind[s] != "" {
			out = append(out, replay.Forfeit{Seat: s, Kind: f.kind[s], Reason: f.reason[s]})
		}
	}
	res.Reason = joinReasons(f.reason)
	return out
}

// replayOutcome is the replay's outcome of the game.
func (r GameResult) replayOutcome() string {
	if r.Draw() {
		return replay.OutcomeDraw
	}
	return replay.OutcomeWin
}

func joinReasons(reason [2]string) string {
	switch {
	case reason[0] != "" && reason[1] != "":
		return "seat 0: " + reason[0] + "; seat 1: " + reason[1]
	case reason[0] != "":
		return reason[0]
	default:
		return reason[1]
	}
}
