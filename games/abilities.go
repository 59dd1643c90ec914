package games

import (
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/replay"
)

// abilitiesUnserved says why the abilities variant has no network host.
const abilitiesUnserved = "the abilities protocol is not written yet (issue 12, item 2)"

// abilitiesGame is the abilities variant of Battleship: rules in
// game/abilities, AIs in players/abilities, replays by
// replay.AbilitiesWriter. It has no network protocol yet: the server does
// not serve it and kaisen play refuses it (Unserved).
var abilitiesGame = Game{
	Name:    abilities.Name,
	Summary: "Battleship with ship abilities (AI vs Humans sides): moving 1-decks, salvoes, counts or suppression, false miss or air defence",
	Players: func() []Player {
		var out []Player
		for _, e := range abplayers.Entries() {
			out = append(out, Player{Name: e.Name, Summary: e.Summary, Config: e.Config})
		}
		return out
	},
	CheckPlayer: func(name string) error {
		_, err := abplayers.Lookup(name)
		return err
	},
	DefaultPlayers: [2]string{"ab-density", "ab-random"},
	Family: func(cfg arena.Config, p1, p2 Entrant) (arena.Family, error) {
		base, err := cfg.Battleship.Build()
		if err != nil {
			return nil, err
		}
		rules, err := cfg.Abilities.Build(base)
		if err != nil {
			return nil, err
		}
		f1, err := abplayers.New(p1.Name, rules, p1.Load)
		if err != nil {
			return nil, fmt.Errorf("--p1: %w", err)
		}
		f2, err := abplayers.New(p2.Name, rules, p2.Load)
		if err != nil {
			return nil, fmt.Errorf("--p2: %w", err)
		}
		return &arena.Abilities{Rules: rules, AlternateFirst: cfg.Abilities.AlternateFirst,
			P1: arena.AbilitiesEntrant{Name: p1.Name, Factory: f1},
			P2: arena.AbilitiesEntrant{Name: p2.Name, Factory: f2}}, nil
	},
	OpenReplay: func(path string) (Replay, error) {
		rp, err := replay.ReadAbilitiesFile(path)
		if err != nil {
			return nil, err
		}
		return abilitiesReplay{rp}, nil
	},
	PlayDefault:      "ab-density",
	ErrUnknownPlayer: abplayers.ErrUnknownPlayer,
	Shots:            true,
	Unserved:         abilitiesUnserved,
	NewClient: func(opt ClientOptions) (Client, error) {
		if _, err := abplayers.Lookup(opt.Player); err != nil {
			return nil, fmt.Errorf("--player: %w", err)
		}
		return nil, fmt.Errorf("kaisen play --game %s: %s", abilities.Name, abilitiesUnserved)
	},
}

type abilitiesReplay struct{ rp *replay.AbilitiesReplay }

func (a abilitiesReplay) Verify() error { return replay.VerifyAbilities(a.rp) }

func (a abilitiesReplay) Summary() string {
	res := a.rp.Result
	return fmt.Sprintf("%d actions (%d cells fired at by seat 0, %d by seat 1), %s", len(a.rp.Actions), res.Shots[0], res.Shots[1], winner(res.Outcome, res.Winner, a.rp.Header.Players))
}

func (a abilitiesReplay) Moves() int   { return len(a.rp.Actions) }
func (a abilitiesReplay) Move() string { return "action" }

func (a abilitiesReplay) Render(w io.Writer, opt RenderOptions) error {
	return replay.RenderAbilities(w, a.rp, opt.From, opt.To)
}

func (a abilitiesReplay) HTML(io.Writer) error {
	return fmt.Errorf("replay: no HTML view of %s replays yet", abilities.Name)
}
