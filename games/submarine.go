package games

import (
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/replay"
)

// submarineGame is the submarine game (潜水艦ゲーム): rules in game/submarine,
// AIs in players, replays by replay.SubmarineWriter.
var submarineGame = Game{
	Name:    submarine.Name,
	Summary: "the submarine game (潜水艦ゲーム): hidden ships that attack, move and hide on a small sea",
	Players: func() []Player {
		var out []Player
		for _, e := range players.Entries() {
			out = append(out, Player{Name: e.Name, Summary: e.Summary, Config: e.Config})
		}
		return out
	},
	CheckPlayer: func(name string) error {
		_, err := players.Lookup(name)
		return err
	},
	DefaultPlayers: [2]string{"stateplayer2", "random"},
	Family: func(cfg arena.Config, p1, p2 Entrant) (arena.Family, error) {
		rules, err := cfg.Rules.Build()
		if err != nil {
			return nil, err
		}
		f1, err := players.New(p1.Name, rules, p1.Load)
		if err != nil {
			return nil, fmt.Errorf("--p1: %w", err)
		}
		f2, err := players.New(p2.Name, rules, p2.Load)
		if err != nil {
			return nil, fmt.Errorf("--p2: %w", err)
		}
		return &arena.Submarine{Rules: rules,
			P1: arena.SubmarineEntrant{Name: p1.Name, Factory: f1},
			P2: arena.SubmarineEntrant{Name: p2.Name, Factory: f2}}, nil
	},
	OpenReplay: func(path string) (Replay, error) {
		rp, err := replay.ReadSubmarineFile(path)
		if err != nil {
			return nil, err
		}
		return submarineReplay{rp}, nil
	},
	ReplayFlags: []string{"heatmap"},
}

type submarineReplay struct{ rp *replay.SubmarineReplay }

func (s submarineReplay) Verify() error { return replay.VerifySubmarine(s.rp) }

func (s submarineReplay) Summary() string {
	return fmt.Sprintf("%d actions, %s", s.rp.Result.Actions, winner(s.rp.Result.Outcome, s.rp.Result.Winner, s.rp.Header.Players))
}

func (s submarineReplay) Moves() int   { return len(s.rp.Steps) }
func (s submarineReplay) Move() string { return "action" }

func (s submarineReplay) Render(w io.Writer, opt RenderOptions) error {
	return replay.RenderSubmarine(w, s.rp, replay.SubmarineRenderOptions{From: opt.From, To: opt.To, Heatmap: opt.Heatmap})
}

func (s submarineReplay) HTML(w io.Writer) error {
	d, err := replay.SubmarineHTML(s.rp)
	if err != nil {
		return err
	}
	return replay.WriteHTML(w, d)
}

// winner is "draw" or "seat S NAME wins".
func winner(outcome string, seat int, players [2]replay.SeatInfo) string {
	if outcome != replay.OutcomeWin {
		return "draw"
	}
	return fmt.Sprintf("seat %d %s wins", seat, players[seat].Name)
}
