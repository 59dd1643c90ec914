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
)

// heartbeat keeps an idle event stream open through proxies.
const heartbeat = 15 * time.Second

// Handler serves the spectator pages: GET / (the games), /games/ID (a live
// view), /games/ID/events (its server-sent events: "info", then one
// "move" per move, then "end") and /games/ID/replay (the HTML replay of a
// finished game). Everything else is 404 or 405: the spectator only reads.
func (h *Hub) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", h.list)
	mux.HandleFunc("GET /games/{id}", h.live)
	mux.HandleFunc("GET /games/{id}/events", h.events)
	mux.HandleFunc("GET /games/{id}/replay", h.replay)
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
	var b bytes.Buffer
	if err := listPage.Execute(&b, map[string]any{"Running": running, "Finished": finished}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
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
	var b bytes.Buffer
	if err := livePage.Execute(&b, map[string]any{"ID": g.info.ID}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

// events streams a game: its info, every move so far, then each new move
// as it is played, and its end (then the stream closes).
func (h *Hub) events(w http.ResponseWriter, r *http.Request) {
	g, ok := h.game(r.PathValue("id"))
	if !ok {
		http.NotFound(w, r)
		return
	}
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
	h.mu.Lock()
	info := g.info
	h.mu.Unlock()
	if !send("info", info) {
		return
	}
	sent := 0
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		h.mu.Lock()
		batch := g.events[sent:len(g.events):len(g.events)]
		end, change := g.end, g.change
		h.mu.Unlock()
		for i, e := range batch {
			if g.sub != nil {
				e.Known = g.knownAt(sent+i, &e)
			}
			if !send("move", e) {
				return
			}
		}
		sent += len(batch)
		if end != nil {
			send("end", end)
			fl.Flush()
			return
		}
		fl.Flush()
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
	path := filepath.Join(h.replayDir, g.info.ID+".jsonl")
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
