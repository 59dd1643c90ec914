package web

import (
	crand "crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

// PlayOptions set up "play the house AI" on the pages: a person starts a
// game against the house AI from the list and plays it by clicking, in
// the browser, on the same address as the spectator pages. Every
// registered game with browser play (games.Game.Browse: a terminal seat,
// a public view, its legal actions listed) plays through the same page
// and the same HTTP flow.
type PlayOptions struct {
	// Games are the games offered, the first by default (POST /play
	// without a game); empty: Game and House alone.
	Games []PlayGame
	// Game is the one game offered when Games is empty ("": submarine),
	// House its house AI ("": the game's default AI, kaisen play's).
	Game  string
	House string
	// Timeout is the person's time per action; then the game is
	// forfeited (0: no limit).
	Timeout time.Duration
	// Key is the tables' secret: table k's house AI plays from
	// Key.Rand("web house", k) and the person's fleet is drawn from
	// Key.Rand("web person", k), so that one table's fleets tell nothing
	// of another's. The zero Key: one drawn at start.
	Key keystream.Key
	// MaxGames is the number of games people may play at once (0: 8).
	MaxGames int
	// MaxPerAddr is the number of games the people of one client address
	// may play at once (0: 2); past it POST /play is refused (429).
	MaxPerAddr int
	// Record, when set, stores every finished game as the server stores
	// its own (kaisen serve: the server's replay directory and result
	// log), so that it is in the replays and the result log.
	Record Recorder
}

// PlayGame is one game offered in the browser.
type PlayGame struct {
	Game  string // a registered game ("": submarine)
	House string // its house AI ("": the game's default AI, kaisen play's)
	// Listener, when set, is the server listener whose settings give the
	// rules (games.Browser.Listener); nil: the game's default rules.
	Listener *server.ListenerConfig
}

// Play enables "play the house AI" (POST /play, /play/ID); the games are
// listed and watched like the server's.
func Play(o PlayOptions) Option {
	return func(h *Hub) {
		if len(o.Games) == 0 {
			o.Games = []PlayGame{{Game: o.Game, House: o.House}}
		}
		o.Games = append([]PlayGame(nil), o.Games...)
		for i := range o.Games {
			g := &o.Games[i]
			if g.Game == "" {
				g.Game = submarine.Name
			}
			if d, err := games.Lookup(g.Game); err == nil && g.House == "" {
				g.House = d.PlayDefault
			}
		}
		o.Game, o.House = o.Games[0].Game, o.Games[0].House
		if o.MaxGames <= 0 {
			o.MaxGames = 8
		}
		if o.Key.IsZero() {
			o.Key = keystream.New()
		}
		if o.MaxPerAddr <= 0 {
			o.MaxPerAddr = 2
		}
		h.play = &o
	}
}

// table is one game a person plays against the house AI.
type table struct {
	id     string // unguessable (crypto/rand), public: the spectators' /games/ID
	secret string // the person's session, in their cookie only
	addr   string // the client address that started it
	// started is closed once the game started (or ended without).
	started   chan struct{}
	startOnce sync.Once

	mu       sync.Mutex
	state    PlayState
	deadline time.Time // the person's action is due then (their turn)
	// inbox takes the person's action (its label) on their turn, until
	// turnEnd is closed (nil between turns).
	inbox    chan string
	turnEnd  chan struct{}
	timedOut string // why the person's time ran out ("": it did not)
	change   chan struct{}
}

// Why POST /play is refused.
var (
	errTablesFull = errors.New("web: all games against the house AI are taken")
	errAddrFull   = errors.New("web: this address plays as many games as it may")
	errNoGame     = errors.New("web: no such game to play")
)

// offer is the game of POST /play's name ("": the first offered).
func (o *PlayOptions) offer(name string) (PlayGame, games.Game, error) {
	for _, p := range o.Games {
		if name != "" && p.Game != name {
			continue
		}
		g, err := games.Lookup(p.Game)
		if err != nil {
			return p, g, fmt.Errorf("%w: %w", errNoGame, err)
		}
		if g.Browse == nil {
			return p, g, fmt.Errorf("%w: %s has no browser play", errNoGame, p.Game)
		}
		return p, g, nil
	}
	var offered []string
	for _, p := range o.Games {
		offered = append(offered, p.Game)
	}
	return PlayGame{}, games.Game{}, fmt.Errorf("%w: %q is not offered here (offered: %s)", errNoGame, name, strings.Join(offered, ", "))
}

// claim takes a table's slot for client address addr and returns its
// number and how to give it back, or says why it cannot (errTablesFull,
// errAddrFull).
func (h *Hub) claim(addr string) (uint64, func(), error) {
	o := h.play
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.playing >= o.MaxGames {
		return 0, nil, fmt.Errorf("%w: %d are running, try again later", errTablesFull, h.playing)
	}
	if n := h.addrTables[addr]; n >= o.MaxPerAddr {
		return 0, nil, fmt.Errorf("%w: %d running from %s (at most %d), finish one first", errAddrFull, n, addr, o.MaxPerAddr)
	}
	h.playing++
	h.addrTables[addr]++
	h.tableSeq++
	release := func() {
		h.mu.Lock()
		h.playing--
		if h.addrTables[addr]--; h.addrTables[addr] <= 0 {
			delete(h.addrTables, addr)
		}
		h.mu.Unlock()
	}
	return h.tableSeq, release, nil
}

// startTable starts a game of name ("": the first offered) against the
// house AI for client address addr, or says why it cannot
// (errTablesFull, errAddrFull, errNoGame). It returns once the game has
// started: its public view is then listed.
func (h *Hub) startTable(addr, name string) (*table, error) {
	o := h.play
	p, g, err := o.offer(name)
	if err != nil {
		return nil, err
	}
	k, release, err := h.claim(addr)
	if err != nil {
		return nil, err
	}
	id, secret := crand.Text(), crand.Text() // 130 bits each, A-Z and 2-7
	t := &table{id: "web-" + id, secret: secret, addr: addr, started: make(chan struct{}), change: make(chan struct{})}
	t.state = PlayState{ID: t.id, Game: g.Name, House: p.House, Timeout: o.Timeout.String(), Shots: map[int]string{}, Attacked: map[int]string{}}
	peers := [2]server.Peer{{Addr: "browser", Name: "you (browser)"}, {Addr: "house", Name: p.House}}
	hdr := replay.Start{Seed: k, First: 0}
	for i, pe := range peers {
		hdr.Players[i] = replay.SeatInfo{Seat: i, Name: playerName(pe)}
	}
	seat := &webSeat{h: h, t: t}
	run, err := g.Browse(games.Browser{House: p.House, Listener: p.Listener,
		Rands:   [2]*rand.Rand{o.Key.Rand("web person", k), o.Key.Rand("web house", k)},
		Timeout: o.Timeout, Spectator: h, ID: t.id, Peers: peers,
		Replay: o.Record != nil, Header: hdr, Person: seat})
	if err != nil {
		release()
		return nil, err
	}
	h.mu.Lock()
	h.tables[t.id] = t
	h.mu.Unlock()
	go func() {
		defer release()
		start := time.Now().UTC()
		res := run()
		t.startOnce.Do(func() { close(t.started) })
		h.finishTable(t, res, peers, start)
	}()
	<-t.started
	return t, nil
}

// Playing is the number of games against the house AI running.
func (h *Hub) Playing() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.playing
}

// sessionCookie names the cookie that holds a person's secret; it is
// scoped to the table's path (/play/ID), so one browser may hold several.
const sessionCookie = "kaisen-seat"

// table is the table of the request's {id}, for its person only: an unknown
// id is 404, a request without the table's session cookie, or with another,
// is 403 (compared in constant time); it answers false when refused.
func (h *Hub) table(w http.ResponseWriter, r *http.Request) (*table, bool) {
	h.mu.Lock()
	t, ok := h.tables[r.PathValue("id")]
	h.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return nil, false
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil || subtle.ConstantTimeCompare([]byte(c.Value), []byte(t.secret)) != 1 {
		http.Error(w, "403 forbidden: this game belongs to the browser that started it (its session cookie is missing or wrong); watch it at /games/"+t.id, http.StatusForbidden)
		return nil, false
	}
	return t, true
}

// jsonOnly refuses a request whose body is not declared JSON: a page of
// another site cannot send one without a CORS preflight, which is never
// answered, so it cannot start or play games for a visitor.
func jsonOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, "want Content-Type: application/json", http.StatusUnsupportedMediaType)
		return false
	}
	return true
}

// NewGame is what POST /play may say: the game to play ("" or no body:
// the first offered).
type NewGame struct {
	Game string `json:"game"`
}

// newTable is POST /play: it starts a game and answers its page's path.
func (h *Hub) newTable(w http.ResponseWriter, r *http.Request) {
	if !jsonOnly(w, r) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<10)) // bounded in time by the server's limits
	if err != nil {
		http.Error(w, "bad request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	var ng NewGame
	if len(strings.TrimSpace(string(body))) > 0 {
		if err := json.Unmarshal(body, &ng); err != nil {
			http.Error(w, "bad request body: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	t, err := h.startTable(clientAddr(r), ng.Game)
	switch {
	case errors.Is(err, errAddrFull):
		http.Error(w, err.Error(), http.StatusTooManyRequests)
		return
	case errors.Is(err, errNoGame):
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: t.secret, Path: "/play/" + t.id,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"id": t.id, "page": "/play/" + t.id})
}

func (h *Hub) playPage(w http.ResponseWriter, r *http.Request) {
	t, ok := h.table(w, r)
	if !ok {
		return
	}
	h.page(w, playTemplate, map[string]any{"ID": t.id})
}

// playEvents streams the person's state ("state" events) until the end.
func (h *Hub) playEvents(w http.ResponseWriter, r *http.Request) {
	t, ok := h.table(w, r)
	if !ok {
		return
	}
	h.sse(w, r, 0, nil, func(send func(string, any) bool) (<-chan struct{}, bool) {
		s, change := t.snapshot()
		if !send("state", s) || s.Over {
			return nil, false
		}
		return change, true
	})
}

// Act is the person's action, as the page posts it: one of the state's
// actions, by its label.
type Act struct {
	Action string `json:"action"`
}

// act is POST /play/ID/act: an action that is not one of the state's is
// refused (400) and the person may try again; it never forfeits the game.
// An action sent when it is not the person's turn is refused (409); one
// that is legal on this turn but reaches the game after it (the time ran
// out) is not played.
func (h *Hub) act(w http.ResponseWriter, r *http.Request) {
	t, ok := h.table(w, r)
	if !ok {
		return
	}
	if !jsonOnly(w, r) {
		return
	}
	var m Act
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&m); err != nil {
		http.Error(w, "bad action: "+err.Error(), http.StatusBadRequest)
		return
	}
	s, inbox, end := t.turnNow()
	if !s.Turn || inbox == nil {
		http.Error(w, "not your turn", http.StatusConflict)
		return
	}
	if !s.offers(m.Action) {
		http.Error(w, "not a legal action: send one of the actions of your turn (their labels, as the state lists them)", http.StatusBadRequest)
		return
	}
	select {
	case inbox <- m.Action: // the game takes it
		w.WriteHeader(http.StatusAccepted)
	case <-end: // the turn is over (the time ran out, another click was taken)
		http.Error(w, "not your turn", http.StatusConflict)
	case <-r.Context().Done():
	}
}
