package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"path/filepath"
	"time"

	"github.com/kaisen-ai/kaisen/ladder"
)

// LadderReader is what the ladder pages read of the rated ladder
// (*ladder.Store): the same calls as kaisen ladder table and history.
type LadderReader interface {
	Table(ctx context.Context) ([]ladder.Bot, error)
	History(ctx context.Context, name string) ([]ladder.Played, error)
	// Rating is a bot's current rating; ladder.ErrUnknownBot when no bot
	// has that name.
	Rating(ctx context.Context, name string) (ladder.Rating, error)
}

// Ladder adds the rated ladder's pages (kaisen serve --ladder --web):
// GET /ladder, the table of bots by rating, and GET /ladder/NAME, a bot's
// rated games with its rating before and after each, linking to their
// replays (GET /ladder/NAME/games/ID/replay).
func Ladder(r LadderReader) Option { return func(h *Hub) { h.ladder = r } }

var (
	ladderPage  = template.Must(template.ParseFS(assets, "page/ladder.html", "page/ladderstyle.html"))
	historyPage = template.Must(template.ParseFS(assets, "page/history.html", "page/ladderstyle.html"))
)

// ladderTimeout bounds one read of the ladder database by a page.
const ladderTimeout = 10 * time.Second

// standing is one row of the ladder table, as kaisen ladder table prints it.
type standing struct {
	Rank       int
	Name       string
	Rating, RD string
	Volatility string
	Games      int
	// Wins, Draws and Losses count its stored games by result;
	// Provisional says it has met fewer than ladder.ProvisionalOpponents
	// different bots (as kaisen ladder table marks it).
	Wins, Draws, Losses int
	Provisional         bool
	HistoryPath         string
}

// playedRow is one game of a bot's history, as kaisen ladder history
// prints it.
type playedRow struct {
	Game, Opponent, Result, Reason string
	Actions                        int
	Before, After                  string
	End                            string
	Replay                         string // the replay's page, "" when there is none
}

func (h *Hub) ladderTable(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), ladderTimeout)
	defer cancel()
	bots, err := h.ladder.Table(ctx)
	if err != nil {
		ladderError(w, r, err)
		return
	}
	rows := make([]standing, len(bots))
	for i, b := range bots {
		rows[i] = standing{Rank: i + 1, Name: b.Name, Rating: fmt.Sprintf("%.0f", b.Rating.R), RD: fmt.Sprintf("%.0f", b.Rating.RD),
			Volatility: fmt.Sprintf("%.4f", b.Rating.Vol), Games: b.Games,
			Wins: b.Wins, Draws: b.Draws, Losses: b.Losses, Provisional: b.Provisional(), HistoryPath: "/ladder/" + b.Name}
	}
	h.page(w, ladderPage, map[string]any{"Bots": rows, "ProvisionalOpponents": ladder.ProvisionalOpponents})
}

// history reads bot name's rating and games; errNoBot when there is no
// such bot (a name that is not a valid bot name is not looked up).
func (h *Hub) history(ctx context.Context, name string) (ladder.Rating, []ladder.Played, error) {
	if ladder.ValidName(name) != nil {
		return ladder.Rating{}, nil, errNoBot
	}
	ctx, cancel := context.WithTimeout(ctx, ladderTimeout)
	defer cancel()
	r, err := h.ladder.Rating(ctx, name)
	if errors.Is(err, ladder.ErrUnknownBot) {
		return r, nil, errNoBot
	}
	if err != nil {
		return r, nil, err
	}
	played, err := h.ladder.History(ctx, name)
	return r, played, err
}

var errNoBot = errors.New("no such bot")

// ladderError answers a failed read of the ladder: 404 for an unknown
// bot, else 503.
func ladderError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errNoBot) {
		http.NotFound(w, r)
		return
	}
	http.Error(w, "the ladder database is unavailable", http.StatusServiceUnavailable)
}

func (h *Hub) ladderHistory(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("bot")
	rating, played, err := h.history(r.Context(), name)
	if err != nil {
		ladderError(w, r, err)
		return
	}
	rows := make([]playedRow, len(played))
	for i, p := range played {
		g := p.Game
		rows[i] = playedRow{Game: g.ID, Opponent: p.Opponent(), Result: p.Result(), Reason: g.Reason, Actions: g.Actions,
			Before: fmt.Sprintf("%.0f", p.Before.R), After: fmt.Sprintf("%.0f", p.After.R), End: g.End.UTC().Format(time.DateTime)}
		if g.Replay != "" && h.replayDir != "" {
			rows[i].Replay = "/ladder/" + name + "/games/" + g.ID + "/replay"
		}
	}
	h.page(w, historyPage, map[string]any{"Bot": name, "Games": rows,
		"Rating": fmt.Sprintf("%.0f", rating.R), "RD": fmt.Sprintf("%.0f", rating.RD), "Chart": ratingChart(played)})
}

// ladderReplay serves the HTML replay of one of a bot's rated games. The
// file is the one the ladder names for the game (never a path from the
// request), in the replay directory.
func (h *Hub) ladderReplay(w http.ResponseWriter, r *http.Request) {
	_, played, err := h.history(r.Context(), r.PathValue("bot"))
	if err != nil {
		ladderError(w, r, err)
		return
	}
	id := r.PathValue("id")
	var file string
	for _, p := range played {
		if p.Game.ID == id {
			file = p.Game.Replay
		}
	}
	if file == "" || h.replayDir == "" {
		http.NotFound(w, r)
		return
	}
	serveReplay(w, filepath.Join(h.replayDir, filepath.Base(file)))
}
