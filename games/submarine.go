package games

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/players"
	_ "github.com/kaisen-ai/kaisen/players/admiral" // registers admiral and admiral-series
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

// submarineGame is the submarine game (潜水艦ゲーム): rules in game/submarine,
// AIs in players (admiral in players/admiral, linked here), replays by
// subrecord.Writer, wire codec in game/submarine/wire (served in every
// dialect through the server's one turn loop: a listener's dialect and
// board from subwire.Listener, its fast decoder and result encoder, its
// forfeits told as invalid actions), the terminal seat in internal/human
// (submarine.go).
var submarineGame = Define(submarineDef())

// submarineDef is the game's Def.
func submarineDef() Def[*submarine.Rules, *submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told] {
	return Def[*submarine.Rules, *submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		Name:             submarine.Name,
		Summary:          "the submarine game (潜水艦ゲーム): hidden ships that attack, move and hide on a small sea",
		Rules:            func(cfg arena.Config) (*submarine.Rules, error) { return cfg.Rules.Build() },
		AIs:              Adapted(players.Entries, players.Lookup, players.New, players.Adapt),
		ErrUnknownPlayer: players.ErrUnknownPlayer,
		DefaultPlayers:   [2]string{"stateplayer2", "random"},
		PlayDefault:      "random",
		Family:           submarineFamily,
		Record: func(r *submarine.Rules, w io.Writer, h arena.RecordHeader) arena.Recorder[submarine.Placement, submarine.Action, submarine.Step] {
			return subrecord.NewRecorder(w, r, h)
		},
		OpenReplay:  openReplay(subrecord.ReadFile, func(rp *subrecord.Replay) Replay { return submarineReplay{rp} }),
		ReplayFlags: []string{"heatmap", "audit", "fold"},
		// Every dialect subwire.Client knows (classic, series,
		// submarine-py, which asks for the client's name).
		Wire: &Wire[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told]{
			Named: func(_ *submarine.Rules, name string) game.ClientCodec[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told] {
				return subwire.NewClient(submarine.DefaultRules(), name)
			},
			Wording: client.WordSubmarine,
			Listen:  submarineListen,
			// The wire check plays both dialects, submarine-py on the
			// default board and on a rounded 6x5 one with a rock.
			Dialects: []server.ListenerConfig{
				{Dialect: protocol.Classic.String()},
				{Dialect: protocol.SubmarinePy.String()},
				{Dialect: protocol.SubmarinePy.String(), Width: 6, Height: 5, Rounded: true, Rocks: "2,2"},
			},
		},
		Text: func(r *submarine.Rules, _ int, out io.Writer, rng *rand.Rand) human.Text[submarine.Placement, submarine.Action, submarine.Told] {
			return human.SubmarineText(r, out, rng)
		},
		Local: human.SubmarineLocal,
		// The public view: the server's spectators see it, browser play
		// draws it (Browse).
		View:    func(g *submarine.Game) game.View[submarine.Step] { return submarine.NewPublicView(g) },
		Illegal: []submarine.Action{{Kind: submarine.Invalid}, submarine.AttackAt(grid.None), submarine.MoveTo(submarine.NoShip, 0)},
		Perft:   submarinePerft(),
	}
}

// submarineListen is what a server listener of the submarine game plays:
// the subwire.Listener of its dialect and board settings.
func submarineListen(l server.ListenerConfig) (server.Listening[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told], error) {
	sl, err := subwire.NewListener(subwire.ListenerSettings{Dialect: l.Dialect, Board: l.Board, Plain: l.PlainBoard(), Games: l.Games})
	if err != nil {
		return nil, err
	}
	return sl, nil
}

// submarineFamily is the arena family of a submarine match
// (arena.Submarine, on the AIs in their own type), which kaisen tournament
// --timing switches on.
var submarineFamily = aiRoster[*submarine.Rules, players.Factory]{players.Entries, players.Lookup, players.New}.family(
	func(cfg arena.Config) (*submarine.Rules, error) { return cfg.Rules.Build() },
	func(_ arena.Config, r *submarine.Rules, p1, p2 Entrant, f1, f2 players.Factory) arena.Family {
		return &arena.Submarine{Rules: r,
			P1: arena.SubmarineEntrant{Name: p1.Name, Factory: f1},
			P2: arena.SubmarineEntrant{Name: p2.Name, Factory: f2}}
	})

type submarineReplay struct{ rp *subrecord.Replay }

func (s submarineReplay) Verify() error { return subrecord.Verify(s.rp) }

func (s submarineReplay) Summary() string {
	return fmt.Sprintf("%d actions, %s", s.rp.Result.Actions, winner(s.rp.Result.Outcome, s.rp.Result.Winner, s.rp.Header.Players, s.rp.Result.Adjudicated))
}

func (s submarineReplay) Moves() int   { return len(s.rp.Steps) }
func (s submarineReplay) Move() string { return "action" }

func (s submarineReplay) Render(w io.Writer, opt RenderOptions) error {
	return subrecord.Render(w, s.rp, subrecord.RenderOptions{From: opt.From, To: opt.To, Heatmap: opt.Heatmap, Fold: opt.Fold})
}

func (s submarineReplay) HTML(w io.Writer) error {
	d, err := subrecord.HTML(s.rp)
	if err != nil {
		return err
	}
	return replay.WriteHTML(w, d)
}

// winner is "draw" or "seat S NAME wins", and why a research run
// adjudicated the draw when it did ("draw (adjudicated: cap)").
func winner(outcome string, seat int, players [2]replay.SeatInfo, adjudicated string) string {
	if outcome != replay.OutcomeWin {
		if adjudicated != "" {
			return "draw (adjudicated: " + adjudicated + ")"
		}
		return "draw"
	}
	return fmt.Sprintf("seat %d %s wins", seat, players[seat].Name)
}
