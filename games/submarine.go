package games

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/players"
	_ "github.com/kaisen-ai/kaisen/players/admiral" // registers admiral and admiral-series
	"github.com/kaisen-ai/kaisen/replay"
)

// subRoster lists, checks and builds the game's AIs.
var subRoster = aiRoster[*submarine.Rules, players.Factory]{players.Entries, players.Lookup, players.New}

// submarineGame is the submarine game (潜水艦ゲーム): rules in game/submarine,
// AIs in players (admiral in players/admiral, linked here), replays by
// subrecord.Writer.
var submarineGame = Game{
	Name:           submarine.Name,
	Summary:        "the submarine game (潜水艦ゲーム): hidden ships that attack, move and hide on a small sea",
	Players:        subRoster.players,
	CheckPlayer:    subRoster.check,
	DefaultPlayers: [2]string{"stateplayer2", "random"},
	Family: subRoster.family(func(cfg arena.Config) (*submarine.Rules, error) { return cfg.Rules.Build() },
		func(_ arena.Config, r *submarine.Rules, p1, p2 Entrant, f1, f2 players.Factory) arena.Family {
			return &arena.Submarine{Rules: r,
				P1: arena.SubmarineEntrant{Name: p1.Name, Factory: f1},
				P2: arena.SubmarineEntrant{Name: p2.Name, Factory: f2}}
		}),
	OpenReplay:       openReplay(subrecord.ReadFile, func(rp *subrecord.Replay) Replay { return submarineReplay{rp} }),
	ReplayFlags:      []string{"heatmap", "audit", "fold"},
	PlayDefault:      "random",
	ErrUnknownPlayer: players.ErrUnknownPlayer,
	Tools:            []Tool{ToolTournament, ToolLoadtest},
	NewClient:        newSubmarineClient,
	Conformance:      submarineChecks,
	HumanClient: func(name string, in *bufio.Reader, out io.Writer) Client {
		build := func(r *submarine.Rules) (players.Factory, error) {
			return func(rng *rand.Rand) players.Player { return human.New(r, in, out, rng) }, nil
		}
		return &submarineClient{name: name, build: build}
	},
	HumanLocal: func(in *bufio.Reader, out io.Writer, opt HumanOptions) error {
		r := submarine.DefaultRules()
		return humanLocal(in, out, opt, humanGame[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
			name:  submarine.Name,
			local: human.SubmarineLocal(r),
			text: func(out io.Writer, me *rand.Rand, _ int) human.Text[submarine.Placement, submarine.Action, submarine.Told] {
				return human.SubmarineText(r, out, me)
			},
			build: builder(subRoster, r, players.Adapt),
			intro: func(seat, _ int, against string) string {
				return fmt.Sprintf("you (seat %d, acting %s) against %s", seat, map[int]string{0: "first", 1: "second"}[seat], against)
			},
		})
	},
}

// submarineClient plays the submarine game in every dialect subwire.Client
// knows (classic, series, submarine-py) with build's players (the human
// seat's).
type submarineClient struct {
	name  string
	build client.SubmarinePlayerFor
}

func (c *submarineClient) Play(ctx context.Context, conn net.Conn, first int, opt PlayOptions) (int, error) {
	nc := netClient[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told]{
		name: submarine.Name, wording: client.WordSubmarine, codec: submarineCodec(c.name),
		build: func(r *submarine.Rules) (game.Factory[submarine.Placement, submarine.Action, submarine.Told], error) {
			f, err := c.build(r)
			if err != nil {
				return nil, err
			}
			return players.Adapt(f), nil
		}}
	return nc.Play(ctx, conn, first, opt)
}

// submarineCodec makes the codec of each connection, name being sent to
// submarine-py servers.
func submarineCodec(name string) func() game.ClientCodec[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told] {
	return func() game.ClientCodec[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told] {
		return subwire.NewClient(submarine.DefaultRules(), name)
	}
}

// newSubmarineClient is the game's NewClient: the name sent to
// submarine-py servers defaults to "kaisen-" + the AI.
var newSubmarineClient = clientHook(submarine.Name, client.WordSubmarine, submarine.DefaultRules, subRoster, players.Adapt,
	func(opt ClientOptions) (func() game.ClientCodec[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told], error) {
		if opt.Name == "" {
			opt.Name = "kaisen-" + opt.Player
		}
		if strings.ContainsAny(opt.Name, "\r\n") || strings.TrimSpace(opt.Name) == "" {
			return nil, fmt.Errorf("--name %q: want one non-blank line", opt.Name)
		}
		return submarineCodec(opt.Name), nil
	})

type submarineReplay struct{ rp *subrecord.Replay }

func (s submarineReplay) Verify() error { return subrecord.Verify(s.rp) }

func (s submarineReplay) Summary() string {
	return fmt.Sprintf("%d actions, %s", s.rp.Result.Actions, winner(s.rp.Result.Outcome, s.rp.Result.Winner, s.rp.Header.Players))
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

// winner is "draw" or "seat S NAME wins".
func winner(outcome string, seat int, players [2]replay.SeatInfo) string {
	if outcome != replay.OutcomeWin {
		return "draw"
	}
	return fmt.Sprintf("seat %d %s wins", seat, players[seat].Name)
}
