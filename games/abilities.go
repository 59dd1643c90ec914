package games

import (
	"fmt"
	"io"
	"slices"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/human"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

// abilitiesGame is the abilities variant of Battleship: rules in
// game/abilities, AIs in players/abilities, replays by abrecord.Writer,
// wire codec in game/abilities/wire (the server's abilities listeners,
// with the constant shape's turn hooks; kaisen play), the terminal seat in
// internal/human (abilities.go).
var abilitiesGame = Define(abilitiesDef())

// abilitiesDef is the game's Def.
func abilitiesDef() Def[*abilities.Rules, *abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told] {
	return Def[*abilities.Rules, *abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]{
		Name:             abilities.Name,
		Summary:          "Battleship with ship abilities (AI vs Humans sides): moving 1-decks, salvoes, counts or suppression, false miss or air defence",
		Rules:            abilitiesRules,
		AIs:              Adapted(abplayers.Entries, abplayers.Lookup, abplayers.New, abplayers.Adapt),
		ErrUnknownPlayer: abplayers.ErrUnknownPlayer,
		DefaultPlayers:   [2]string{"ab-density", "ab-random"},
		PlayDefault:      "ab-density",
		First:            abilitiesFirst,
		Record: func(r *abilities.Rules, w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, abilities.Action, abilities.Step] {
			return abrecord.NewRecorder(w, r, h)
		},
		OpenReplay: openReplay(abrecord.ReadFile, func(rp *abrecord.Replay) Replay { return abilitiesReplay{rp} }),
		Shots:      true,
		Wire: &Wire[*abilities.Rules, battleship.Placement, abilities.Action, abilities.Told]{
			Server: func(r *abilities.Rules) game.ServerCodec[battleship.Placement, abilities.Action, abilities.Told] {
				return abwire.Server{Rules: r}
			},
			// The client reads the sides and options from the server's
			// hello, on the classic board and fleet.
			Client: func(r *abilities.Rules) game.ClientCodec[*abilities.Rules, battleship.Placement, abilities.Action, abilities.Told] {
				return abwire.NewClient(r.Base)
			},
			Board: func(r *abilities.Rules) (int, int) { return r.Base.Board.Width(), r.Base.Board.Height() },
			Settings: func(l server.ListenerConfig) (*abilities.Rules, error) {
				return l.Abilities.Listener(battleship.DefaultRules())
			},
			// The wire check plays the default sides, and the sides swapped
			// with every option on (hidden moves, salvoes that shoot again).
			Dialects: []server.ListenerConfig{{}, {Abilities: arena.AbilitiesConfig{Sides: []string{"humans", "ai"},
				Options: abilities.Options{SalvoShootsAgain: true, FalseMissAnyHit: true, MoveMayTouch: true, HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true}}}},
		},
		House:   server.DefaultAbilitiesHouse,
		View:    func(g *abilities.Game) game.View[abilities.Step] { return abilities.NewPublicView(g) },
		Text:    human.AbilitiesText,
		Local:   human.AbilitiesLocal,
		Intro:   abilitiesIntro,
		Sides:   abilitiesSide,
		Illegal: []abilities.Action{{Kind: abilities.Shoot, At: grid.None}, {Kind: abilities.Kind(255)}},
		Perft:   abilitiesPerft(),
	}
}

// abilitiesFirst is the seat that acts first in game index of a match:
// seat 0, or with the config's alternate_first seat 1 in games 2, 3, 6,
// 7, ... (index/2 odd), so that over every four games each AI plays each
// side both first and second.
func abilitiesFirst(cfg arena.Config, index int) int {
	if cfg.Abilities.AlternateFirst && index/2%2 == 1 {
		return 1
	}
	return 0
}

// abilitiesRules are the abilities rules of a match config: its
// abilities section on its battleship board and fleet.
func abilitiesRules(cfg arena.Config) (*abilities.Rules, error) {
	base, err := cfg.Battleship.Build()
	if err != nil {
		return nil, err
	}
	return cfg.Abilities.Build(base)
}

// abilitiesSide is the seat of side (default the AI side) under r.
func abilitiesSide(r *abilities.Rules, side string) (int, error) {
	if side == "" {
		return 0, nil
	}
	s, err := abilities.ParseSide(side)
	if err != nil {
		return 0, err
	}
	return slices.Index(r.Sides[:], s), nil
}

// abilitiesIntro says the person's side and order.
func abilitiesIntro(r *abilities.Rules, seat, first int, against string) string {
	side := "AI"
	if r.Sides[seat] == abilities.Humans {
		side = "Humans"
	}
	return fmt.Sprintf("you (the %s side, acting %s) against %s", side, actingOrder(seat, first), against)
}

type abilitiesReplay struct{ rp *abrecord.Replay }

func (a abilitiesReplay) Verify() error { return abrecord.Verify(a.rp) }

func (a abilitiesReplay) Summary() string {
	res := a.rp.Result
	return fmt.Sprintf("%d actions (%d cells fired at by seat 0, %d by seat 1), %s", len(a.rp.Actions), res.Shots[0], res.Shots[1], winner(res.Outcome, res.Winner, a.rp.Header.Players, ""))
}

func (a abilitiesReplay) Moves() int   { return len(a.rp.Actions) }
func (a abilitiesReplay) Move() string { return "action" }

func (a abilitiesReplay) Render(w io.Writer, opt RenderOptions) error {
	return abrecord.Render(w, a.rp, opt.From, opt.To)
}

func (a abilitiesReplay) HTML(w io.Writer) error {
	d, err := abrecord.HTML(a.rp)
	if err != nil {
		return err
	}
	return replay.WriteHTML(w, d)
}
