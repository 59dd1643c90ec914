package web

import (
	"fmt"
	"time"

	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/server"
)

// Recorder stores a finished game against the house AI as the server
// stores its own (*server.Server's Record): res is its result line, rp its
// replay file (the game's replay format; nil: the game writes none); it
// fills in res.Replay when it wrote the file.
type Recorder interface {
	Record(res *server.Result, rp []byte)
}

// WebListener is the listener name of the games people play in the
// browser, in their result lines.
const WebListener = "web"

// forfeitReasons are the result line's reasons of the game's forfeits.
var forfeitReasons = map[string]string{
	kgame.ForfeitIllegal:   server.ReasonIllegal,
	kgame.ForfeitPanic:     server.ReasonPanic,
	kgame.ForfeitPlacement: server.ReasonPlacement,
}

// tableResult is the result line of table t's game, which ended with res
// between peers, started at start.
func (t *table) result(res *games.BrowserResult, peers [2]server.Peer, start time.Time) server.Result {
	out := server.Result{Game: t.id, Listener: WebListener, Dialect: WebListener, Rounds: 1, Round: 1, Players: peers,
		Winner: res.Winner, Actions: res.Count.Actions, Start: start, End: time.Now().UTC()}
	for s, f := range res.Forfeits {
		if f.Kind == "" {
			continue
		}
		out.Forfeits = append(out.Forfeits, s)
		if out.Reason == "" {
			out.Reason, out.Detail = forfeitReasons[f.Kind], f.Reason
		}
		if s == 0 && res.Forfeit != "" { // the person's time ran out
			t.mu.Lock()
			out.Reason, out.Detail = server.ReasonTimeout, t.timedOut
			t.mu.Unlock()
		}
	}
	switch {
	case res.Winner < 0:
		out.Outcome, out.Winner = server.OutcomeDraw, -1
		if out.Reason == "" {
			out.Reason = "draw limit"
		}
	default:
		out.Outcome = server.OutcomeWin
		if out.Reason == "" {
			out.Reason = server.ReasonSunk
		}
	}
	return out
}

// finishTable records table t's game, which ended with res, and tells
// the spectators and the person.
func (h *Hub) finishTable(t *table, res games.BrowserResult, peers [2]server.Peer, start time.Time) {
	out := t.result(&res, peers, start)
	if rec := h.play.Record; rec != nil {
		if res.ReplayErr != nil {
			out.Detail += fmt.Sprintf(" (no replay: %v)", res.ReplayErr)
		}
		rec.Record(&out, res.Replay)
	}
	h.Finished(out)
	h.mu.Lock()
	text := resultText(out, names(peers))
	h.mu.Unlock()
	t.publish(func(s *PlayState) { s.Over, s.Result = true, text })
}
