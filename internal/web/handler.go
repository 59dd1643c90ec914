package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"path/filepath"
	"time"

	"golang.org/x/time/rate"

	"github.com/kaisen-ai/kaisen/games"
)

//go:embed page
var assets embed.FS

var (
	listPage = template.Must(template.ParseFS(assets, "page/list.html"))
	livePage = template.Must(template.ParseFS(assets, "page/live.html"))
	// playTemplate is the page of a person playing the house AI.
	playTemplate = template.Must(template.ParseFS(assets, "page/play.html"))
)

// heartbeat keeps an idle event stream open through proxies.
const heartbeat = 15 * time.Second

// maxBatch is the most moves a spectator's stream writes at once.
const maxBatch = 256

// budgetRetry is how often a stream waiting for its share of the
// spectators' budget tries again.
const budgetRetry = 50 * time.Millisecond

// closed is a channel closed from the start.
var closed = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// Handler serves the spectator pages: GET / (the games), /games/ID (a live
// view), /games/ID/events (its server-sent events: "info", then one
// "move" per move and a "turn" when whose turn it is changes, then "end") and /games/ID/replay (the HTML replay of a
// finished game). Everything else is 404 or 405: the spectator only reads,
// except, with Play, POST /play (a new game against the house AI), the
// person's page /play/ID, its events (one "state" per change) and POST
// /play/ID/act (the person's action); with Ladder, GET /ladder, GET
// /ladder/NAME and the replays of the rated games it lists.
func (h *Hub) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", h.list)
	mux.HandleFunc("GET /games/{id}", h.live)
	mux.HandleFunc("GET /games/{id}/events", h.events)
	mux.HandleFunc("GET /games/{id}/replay", h.replay)
	if h.ladder != nil {
		mux.HandleFunc("GET /ladder", h.ladderTable)
		mux.HandleFunc("GET /ladder/{bot}", h.ladderHistory)
		mux.HandleFunc("GET /ladder/{bot}/games/{id}/replay", h.ladderReplay)
	}
	if h.play != nil {
		mux.HandleFunc("POST /play", h.newTable)
		mux.HandleFunc("GET /play/{id}", h.playPage)
		mux.HandleFunc("GET /play/{id}/events", h.playEvents)
		mux.HandleFunc("POST /play/{id}/act", h.act)
	}
	return mux
}

// ListFinished is the number of finished games GET / lists, the newest
// (the hub keeps MaxFinished for their pages).
const ListFinished = 100

// row is one game of the list.
type row struct {
	ID, Game, Status string
	Players          [2]string
	Addrs            [2]string // the players' addresses, in a title
	Moves            int
	Running          bool
	Replay           string
	// Started is when the game started (UTC), Took how long it took or
	// has run so far, Ended when it ended ("" while it runs).
	Started, Took, Ended string
}

// clock is a time as the list shows it (UTC, to the second).
func clock(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateTime)
}

// took is the time from start to stop (now while it runs), to the
// tenth of a second.
func took(start, stop, now time.Time) string {
	if start.IsZero() {
		return ""
	}
	if stop.IsZero() {
		stop = now
	}
	return stop.Sub(start).Round(100 * time.Millisecond).String()
}

func (h *Hub) rows() (running, finished []row) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	for i := len(h.order) - 1; i >= 0; i-- { // newest first
		g := h.games[h.order[i]]
		r := row{ID: g.info.ID, Game: g.info.Game, Players: g.info.Players, Addrs: g.info.Addrs, Moves: len(g.events), Running: g.end == nil,
			Started: clock(g.start), Took: took(g.start, g.stop, now), Ended: clock(g.stop)}
		if g.end != nil {
			if len(finished) == ListFinished {
				continue
			}
			r.Status, r.Replay = g.end.Result, g.end.Replay
			finished = append(finished, r)
		} else {
			r.Status = fmt.Sprintf("running, %d moves", len(g.events))
			running = append(running, r)
		}
	}
	return running, finished
}

// list is GET /, from the page made at the last change (listPageBytes).
func (h *Hub) list(w http.ResponseWriter, r *http.Request) {
	body, etag, err := h.listPageBytes()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(body)
}

func (h *Hub) game(id string) (*game, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g, ok := h.games[id]
	return g, ok
}

func (h *Hub) live(w http.ResponseWriter, r *http.Request) {
	g, ok := h.game(r.PathValue("id"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.page(w, livePage, map[string]any{"ID": g.info.ID})
}

// events streams a game: its info, every move so far, then each new move
// as it is played, and its end (then the stream closes).
func (h *Hub) events(w http.ResponseWriter, r *http.Request) {
	g, ok := h.game(r.PathValue("id"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	sent, turnsSent := -1, 0 // -1: not even the info
	h.sse(w, r, h.limits.StreamInterval, h.budget, func(send func(string, any) bool) (<-chan struct{}, bool) {
		h.mu.Lock()
		info, now := g.info, time.Now()
		from := max(sent, 0)
		to := min(len(g.events), from+maxBatch)
		batch := g.events[from:to:to]
		var turns []Turn // the turns within the batch, and the one after it
		var turnAt []int
		for k := turnsSent; k < len(g.turns) && g.turns[k].at <= to; k++ {
			turns, turnAt = append(turns, g.turnOf(g.turns[k], now)), append(turnAt, g.turns[k].at)
		}
		end, change := g.end, g.change
		if to < len(g.events) { // more to send at once
			end, change = nil, closed
		}
		h.mu.Unlock()
		if sent < 0 {
			if !send("info", info) {
				return nil, false
			}
			sent = 0
		}
		k := 0
		sendTurns := func(at int) bool { // the turns told after at moves
			for ; k < len(turns) && turnAt[k] == at; k++ {
				if !send("turn", turns[k]) {
					return false
				}
				turnsSent++
			}
			return true
		}
		for i := range batch {
			if !sendTurns(sent+i) || !send("move", g.encoded(sent+i, &batch[i])) {
				return nil, false
			}
		}
		sent += len(batch)
		if !sendTurns(sent) { // whose turn after the last move sent
			return nil, false
		}
		if end != nil {
			send("end", end)
			return nil, false
		}
		return change, true
	})
}

// replay serves the HTML replay of a finished game, made from its replay
// file.
func (h *Hub) replay(w http.ResponseWriter, r *http.Request) {
	g, ok := h.game(r.PathValue("id"))
	h.mu.Lock()
	var end *End
	if ok {
		end = g.end
	}
	h.mu.Unlock()
	if end == nil || end.Replay == "" {
		http.NotFound(w, r)
		return
	}
	serveReplay(w, filepath.Join(h.replayDir, g.info.ID+".jsonl"))
}

// serveReplay writes the HTML replay of the replay file at path.
func serveReplay(w http.ResponseWriter, path string) {
	rp, err := games.OfReplay(path).OpenReplay(path)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var b bytes.Buffer
	if err := rp.HTML(&b); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

// page writes the page of template tp with data.
func (h *Hub) page(w http.ResponseWriter, tp *template.Template, data any) {
	var b bytes.Buffer
	if err := tp.Execute(&b, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

// sse streams server-sent events: next sends what is new (a
// json.RawMessage as it is, anything else in JSON) and returns the channel
// closed at the next change, or false when the stream is over; it writes
// at most once per pace.
//
// A stream never holds up a game: the games only append to their record
// and close a channel; each stream reads the record in its own goroutine,
// at most once per pace (the spectators' StreamInterval), within its share
// of budget (the spectators' StreamBytesPerSec, shared by all their
// streams: a stream takes some when there is, and its moves wait in the
// game's record, never in a queue of the game), and is dropped when its client does not
// take a write within StreamWriteTimeout. At most MaxStreams are open; the
// next is 503. The server's ReadTimeout and WriteTimeout do not apply to a
// stream.
func (h *Hub) sse(w http.ResponseWriter, r *http.Request, pace time.Duration, budget *rate.Limiter, next func(send func(kind string, v any) bool) (<-chan struct{}, bool)) {
	l := h.limits
	if h.streams.Add(1) > int64(l.MaxStreams) {
		h.streams.Add(-1)
		http.Error(w, "503 too many event streams are open: try again later", http.StatusServiceUnavailable)
		return
	}
	defer h.streams.Add(-1)
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{}) // the request is read: its client only waits now
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil { // the client knows it is heard, before its turn in the budget
		return
	}
	wait := time.NewTimer(0)
	defer wait.Stop()
	var buf bytes.Buffer
	send := func(kind string, v any) bool {
		data, ok := v.(json.RawMessage)
		if !ok {
			var err error
			if data, err = json.Marshal(v); err != nil {
				return false
			}
		}
		buf.WriteString("event: ")
		buf.WriteString(kind)
		buf.WriteString("\ndata: ")
		buf.Write(data)
		buf.WriteString("\n\n")
		return true
	}
	flush := func() bool {
		// The budget is taken when there is some, never reserved ahead:
		// a client that goes away holds no share of it.
		for budget != nil && buf.Len() > 0 && !budget.AllowN(time.Now(), min(buf.Len(), budget.Burst())) {
			wait.Reset(budgetRetry)
			select {
			case <-wait.C:
			case <-r.Context().Done():
				return false
			}
		}
		if err := rc.SetWriteDeadline(time.Now().Add(l.StreamWriteTimeout)); err != nil {
			return false
		}
		_, err := w.Write(buf.Bytes())
		buf.Reset()
		return err == nil && rc.Flush() == nil
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		change, more := next(send)
		if !flush() || !more {
			return
		}
		if pace > 0 {
			wait.Reset(pace)
			select { // the next write waits for a change, but no less than pace
			case <-wait.C:
			case <-r.Context().Done():
				return
			}
		}
		select {
		case <-change:
		case <-tick.C:
			buf.WriteString(": heartbeat\n\n")
		case <-r.Context().Done():
			return
		}
	}
}
