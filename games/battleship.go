package games

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/human"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

// battleshipGame is classic Battleship (Морской бой): rules in
// game/battleship, inference in belief/battleship, AIs in
// players/battleship, replays by bsrecord.Writer, wire codec in
// game/battleship/wire (the server's battleship listeners, kaisen play),
// the terminal seat in internal/human (battleship.go).
var battleshipGame = Define(battleshipDef())

// battleshipDef is the game's Def.
func battleshipDef() Def[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event] {
	return Def[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
		Name:             battleship.Name,
		Summary:          "classic Battleship (Морской бой): 10x10, ships that never touch, a hit earns another shot",
		Rules:            func(cfg arena.Config) (*battleship.Rules, error) { return cfg.Battleship.Build() },
		AIs:              Adapted(bsplayers.Entries, bsplayers.Lookup, bsplayers.New, bsplayers.Adapt),
		ErrUnknownPlayer: bsplayers.ErrUnknownPlayer,
		DefaultPlayers:   [2]string{"gridbot", "bs-random"},
		PlayDefault:      "gridbot",
		Record: func(r *battleship.Rules, w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, grid.Cell, battleship.Step] {
			return bsrecord.NewRecorder(w, r, h)
		},
		OpenReplay:  openReplay(bsrecord.ReadFile, func(rp *bsrecord.Replay) Replay { return battleshipReplay{rp} }),
		ReplayFlags: []string{"boards", "cyrillic"},
		CheckRender: func(opt RenderOptions) error {
			switch opt.Boards {
			case "", bsrecord.BoardsEnd, bsrecord.BoardsTurn, bsrecord.BoardsShot:
				return nil
			}
			return fmt.Errorf("--boards %q: want %s, %s or %s", opt.Boards, bsrecord.BoardsEnd, bsrecord.BoardsTurn, bsrecord.BoardsShot)
		},
		Shots: true,
		Tools: []Tool{ToolShots, ToolCount},
		Wire: &Wire[*battleship.Rules, battleship.Placement, grid.Cell, battleship.Event]{
			Server: func(r *battleship.Rules) game.ServerCodec[battleship.Placement, grid.Cell, battleship.Event] {
				return bswire.Server{Rules: r}
			},
			Client: func(r *battleship.Rules) game.ClientCodec[*battleship.Rules, battleship.Placement, grid.Cell, battleship.Event] {
				return bswire.NewClient(r)
			},
			Board: func(r *battleship.Rules) (int, int) { return r.Board.Width(), r.Board.Height() },
		},
		House: server.DefaultBattleshipHouse,
		View:  func(g *battleship.Game) game.View[battleship.Step] { return battleship.NewPublicView(g) },
		Text: func(r *battleship.Rules, _ int, out io.Writer, rng *rand.Rand) human.Text[battleship.Placement, grid.Cell, battleship.Event] {
			return human.BattleshipText(r, out, rng)
		},
		Local: human.BattleshipLocal,
		Intro: func(_ *battleship.Rules, seat, _ int, against string) string {
			return fmt.Sprintf("you (%s) against %s", map[int]string{0: "shooting first", 1: "shooting second"}[seat], against)
		},
		Illegal: []grid.Cell{grid.None, grid.Cell(grid.MaxCells)},
		Perft:   battleshipPerft(),
	}
}

type battleshipReplay struct{ rp *bsrecord.Replay }

func (b battleshipReplay) Verify() error { return bsrecord.Verify(b.rp) }

func (b battleshipReplay) Summary() string {
	res := b.rp.Result
	return fmt.Sprintf("%d shots (%d by seat 0, %d by seat 1), %s", len(b.rp.Shots), res.Shots[0], res.Shots[1], winner(res.Outcome, res.Winner, b.rp.Header.Players, res.Adjudicated))
}

func (b battleshipReplay) Moves() int   { return len(b.rp.Shots) }
func (b battleshipReplay) Move() string { return "shot" }

func (b battleshipReplay) Render(w io.Writer, opt RenderOptions) error {
	if opt.Boards == "" {
		opt.Boards = bsrecord.BoardsEnd
	}
	return bsrecord.Render(w, b.rp, bsrecord.RenderOptions{From: opt.From, To: opt.To, Boards: opt.Boards, Cyrillic: opt.Cyrillic})
}

func (b battleshipReplay) HTML(w io.Writer) error {
	d, err := bsrecord.HTML(b.rp)
	if err != nil {
		return err
	}
	return replay.WriteHTML(w, d)
}
