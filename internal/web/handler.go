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

// Handler serves the spectator pages: GET / (the games), /games/ID (a live
// view), /games/ID/events (its server-sent events: "info", then one
// "move" per move, then "end") and /games/ID/replay (the HTML replay of a
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

// row is one game of the list.
type row struct {
	ID, Game, Status string
	Players          [2]string
	Moves            int
	Running          bool
	Replay           string
}

func (h *Hub) rows() (running, finished []row) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.order) - 1; i >= 0; i-- { // newest first
		g := h.games[h.order[i]]
		r := row{ID: g.info.ID, Game: g.info.Game, Players: g.info.Players, Moves: len(g.events), Running: g.end == nil}
		if g.end != nil {
			r.Status, r.Replay = g.end.Result, g.end.Replay
			finished = append(finished, r)
		} else {
			r.Status = fmt.Sprintf("running, %d moves", len(g.events))
			running = append(running, r)
		}
	}
	return running, finished
}

func (h *Hub) list(w http.ResponseWriter, _ *http.Request) {
	running, finished := h.rows()
	var house string
	if h.play != nil {
		house = h.play.House
	}
	h.page(w, listPage, map[string]any{"Running": running, "Finished": finished, "House": house, "Ladder": h.ladder != nil})
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
	sent := -1 // -1: not even the info
	sse(w, r, func(send func(string, any) bool) (<-chan struct{}, bool) {
		h.mu.Lock()
		info := g.info
		batch := g.events[max(sent, 0):len(g.events):len(g.events)]
		end, change := g.end, g.change
		h.mu.Unlock()
		if sent < 0 {
			if !send("info", info) {
				return nil, false
			}
			sent = 0
		}
		for i, e := range batch {
			if g.sub != nil {
				e.Known = g.knownAt(sent+i, &e)
			}
			if !send("move", e) {
				return nil, false
			}
		}
		sent += len(batch)
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

// sse streams server-sent events: next sends what is new and returns the
// channel closed at the next change, or false when the stream is over.
func sse(w http.ResponseWriter, r *http.Request, next func(send func(kind string, v any) bool) (<-chan struct{}, bool)) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(kind string, v any) bool {
		data, err := json.Marshal(v)
		if err != nil {
			return false
		}
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", kind, data)
		return err == nil
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		change, more := next(send)
		fl.Flush()
		if !more {
			return
		}
		select {
		case <-change:
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			return
		}
	}
}
