package games

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/human"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// bsRoster lists, checks and builds the game's AIs.
var bsRoster = aiRoster[*battleship.Rules, bsplayers.Factory]{bsplayers.Entries, bsplayers.Lookup, bsplayers.New}

// battleshipGame is classic Battleship (Морской бой): rules in
// game/battleship, inference in belief/battleship, AIs in
// players/battleship, replays by bsrecord.Writer.
var battleshipGame = Game{
	Name:           battleship.Name,
	Summary:        "classic Battleship (Морской бой): 10x10, ships that never touch, a hit earns another shot",
	Players:        bsRoster.players,
	CheckPlayer:    bsRoster.check,
	DefaultPlayers: [2]string{"gridbot", "bs-random"},
	Family: bsRoster.family(func(cfg arena.Config) (*battleship.Rules, error) { return cfg.Battleship.Build() },
		func(_ arena.Config, r *battleship.Rules, p1, p2 Entrant, f1, f2 bsplayers.Factory) arena.Family {
			return &arena.Battleship{Rules: r,
				P1: arena.BattleshipEntrant{Name: p1.Name, Factory: f1},
				P2: arena.BattleshipEntrant{Name: p2.Name, Factory: f2}}
		}),
	OpenReplay:  openReplay(bsrecord.ReadFile, func(rp *bsrecord.Replay) Replay { return battleshipReplay{rp} }),
	ReplayFlags: []string{"boards", "cyrillic"},
	CheckRender: func(opt RenderOptions) error {
		switch opt.Boards {
		case "", bsrecord.BoardsEnd, bsrecord.BoardsTurn, bsrecord.BoardsShot:
			return nil
		}
		return fmt.Errorf("--boards %q: want %s, %s or %s", opt.Boards, bsrecord.BoardsEnd, bsrecord.BoardsTurn, bsrecord.BoardsShot)
	},
	PlayDefault:      "gridbot",
	ErrUnknownPlayer: bsplayers.ErrUnknownPlayer,
	Shots:            true,
	Tools:            []Tool{ToolTournament, ToolLoadtest, ToolShots, ToolCount},
	NewClient:        newBattleshipClient,
	Conformance:      battleshipChecks,
	HumanClient: func(_ string, in *bufio.Reader, out io.Writer) Client {
		r := battleship.DefaultRules()
		return &battleshipClient{rules: r, factory: func(rng *rand.Rand) bsplayers.Player { return human.NewBattleship(r, in, out, rng) }}
	},
	HumanLocal: func(in *bufio.Reader, out io.Writer, opt HumanOptions) error {
		r := battleship.DefaultRules()
		return humanLocal(in, out, opt, humanGame[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
			name:  battleship.Name,
			local: human.BattleshipLocal(r),
			text: func(out io.Writer, me *rand.Rand, _ int) human.Text[battleship.Placement, grid.Cell, battleship.Event] {
				return human.BattleshipText(r, out, me)
			},
			build: builder(bsRoster, r, bsplayers.Adapt),
			intro: func(seat, _ int, against string) string {
				return fmt.Sprintf("you (%s) against %s", map[int]string{0: "shooting first", 1: "shooting second"}[seat], against)
			},
		})
	},
}

// battleshipClient plays the Kaisen battleship protocol on rules with
// factory's players (the human seat's): one game per connection, or the
// server's series.
type battleshipClient struct {
	rules   *battleship.Rules
	factory bsplayers.Factory
}

func (c *battleshipClient) Play(ctx context.Context, conn net.Conn, first int, opt PlayOptions) (int, error) {
	nc := netClient[*battleship.Rules, battleship.Placement, grid.Cell, battleship.Event]{
		name: battleship.Name, codec: battleshipCodec(c.rules),
		build: func(*battleship.Rules) (game.Factory[battleship.Placement, grid.Cell, battleship.Event], error) {
			return bsplayers.Adapt(c.factory), nil
		}}
	return nc.Play(ctx, conn, first, opt)
}

// battleshipCodec makes the codec of each connection playing r.
func battleshipCodec(r *battleship.Rules) func() game.ClientCodec[*battleship.Rules, battleship.Placement, grid.Cell, battleship.Event] {
	return func() game.ClientCodec[*battleship.Rules, battleship.Placement, grid.Cell, battleship.Event] {
		return bswire.NewClient(r)
	}
}

// newBattleshipClient is the game's NewClient, on the classic rules.
var newBattleshipClient = clientHook(battleship.Name, client.WordGames, battleship.DefaultRules, bsRoster, bsplayers.Adapt,
	func(ClientOptions) (func() game.ClientCodec[*battleship.Rules, battleship.Placement, grid.Cell, battleship.Event], error) {
		return battleshipCodec(battleship.DefaultRules()), nil
	})

type battleshipReplay struct{ rp *bsrecord.Replay }

func (b battleshipReplay) Verify() error { return bsrecord.Verify(b.rp) }

func (b battleshipReplay) Summary() string {
	res := b.rp.Result
	return fmt.Sprintf("%d shots (%d by seat 0, %d by seat 1), %s", len(b.rp.Shots), res.Shots[0], res.Shots[1], winner(res.Outcome, res.Winner, b.rp.Header.Players))
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
