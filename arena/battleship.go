package arena

import (
	"io"
	"log/slog"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
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
// Replays (Deal.Replay) are JSON lines written by bsrecord.Recorder,
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
// of "at". winner is -1 on a draw. bsrecord.Read reads them,
// bsrecord.Verify checks them against the rules and kaisen replay
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
	return newGameTable(tableSpec[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
		rules: b.Rules,
		names: [2]string{b.P1.Name, b.P2.Name},
		f:     [2]game.Factory[battleship.Placement, grid.Cell, battleship.Event]{bsplayers.Adapt(b.P1.Factory), bsplayers.Adapt(b.P2.Factory)},
		record: func(w io.Writer, h recordHeader) recorder[battleship.Placement, grid.Cell, battleship.Step] {
			return bsrecord.NewRecorder(w, b.Rules, h)
		},
	}, log)
}

// Validate checks that the family can play.
func (b *Battleship) Validate() error {
	return validateFamily(b.Game(), b.Rules, b.P1.Factory != nil && b.P2.Factory != nil)
}

// BattleshipReplayRules is the "rules" object of a Battleship replay header.
//
// Deprecated: use bsrecord.Rules.
type BattleshipReplayRules = bsrecord.Rules
