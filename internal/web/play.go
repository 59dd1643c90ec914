package web

import (
	crand "crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/players"
	_ "github.com/kaisen-ai/kaisen/players/admiral" // links admiral and admiral-series into the registry
	"github.com/kaisen-ai/kaisen/server"
)

// PlayOptions set up "play the house AI" on the pages: a person starts a
// game against the house AI from the list and plays it by clicking, in
// the browser, on the same address as the spectator pages.
type PlayOptions struct {
	Rules   *submarine.Rules // nil: the classic 5x5 game
	House   string           // the house AI (kaisen players)
	Timeout time.Duration    // the person's time per action; then the game is forfeited
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

// Play enables "play the house AI" (POST /play, /play/ID); the games are
// listed and watched like the server's.
func Play(o PlayOptions) Option {
	return func(h *Hub) {
		if o.Rules == nil {
			o.Rules = submarine.DefaultRules()
		}
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

// PlayState is what the person's page shows: the person's own fleet, the
// answers of both sides' attacks, and what may be done now.
type PlayState struct {
	ID      string   `json:"id"`
	House   string   `json:"house"`
	W       int      `json:"w"`
	H       int      `json:"h"`
	Rocks   []int    `json:"rocks"`
	Ships   []string `json:"ships"`
	Fleet   []int    `json:"fleet"` // the person's ships' cells
	HP      []int    `json:"hp"`    // the person's ships' hp
	EnemyHP []int    `json:"enemy_hp"`
	// Shots are the person's attacks on the house's waters, Attacked the
	// house's on the person's: cell -> "X" (hit) or "o" (miss).
	Shots    map[int]string `json:"shots"`
	Attacked map[int]string `json:"attacked"`
	N        int            `json:"n"`     // actions played
	Turn     bool           `json:"turn"`  // the person's turn
	Reach    []int          `json:"reach"` // the cells the person may attack
	Moves    [][]int        `json:"moves"` // per ship, the cells it may move to
	Timeout  string         `json:"timeout"`
	// LeftMS is, on the person's turn, the milliseconds left for the
	// action when the state was sent (the page counts down from it).
	LeftMS int64    `json:"left_ms,omitempty"`
	Log    []string `json:"log"`
	Over   bool     `json:"over"`
	Result string   `json:"result,omitempty"`
}

// table is one game a person plays against the house AI.
type table struct {
	id     string                // unguessable (crypto/rand), public: the spectators' /games/ID
	secret string                // the person's session, in their cookie only
	addr   string                // the client address that started it
	acts   chan submarine.Action // the person's actions, checked legal

	mu       sync.Mutex
	state    PlayState
	deadline time.Time // the person's action is due then (their turn)
	change   chan struct{}
}

func (t *table) publish(edit func(*PlayState)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	edit(&t.state)
	close(t.change)
	t.change = make(chan struct{})
}

func (t *table) snapshot() (PlayState, chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state // the slices are only ever replaced or appended to, the maps written in place
	if s.Turn && !t.deadline.IsZero() {
		s.LeftMS = max(time.Until(t.deadline).Milliseconds(), 0)
	}
	s.Log = s.Log[:len(s.Log):len(s.Log)]
	s.Shots, s.Attacked = maps.Clone(s.Shots), maps.Clone(s.Attacked)
	return s, t.change
}

func cellsOf(s grid.Set) []int {
	out := []int{}
	for c := range s.All() {
		out = append(out, int(c))
	}
	return out
}

// Why POST /play is refused.
var (
	errTablesFull = errors.New("web: all games against the house AI are taken")
	errAddrFull   = errors.New("web: this address plays as many games as it may")
)

// startTable starts a game against the house AI for client address addr,
// or says why it cannot (errTablesFull, errAddrFull).
func (h *Hub) startTable(addr string) (*table, error) {
	o := h.play
	id, secret := crand.Text(), crand.Text() // 130 bits each, A-Z and 2-7
	h.mu.Lock()
	if h.playing >= o.MaxGames {
		h.mu.Unlock()
		return nil, fmt.Errorf("%w: %d are running, try again later", errTablesFull, h.playing)
	}
	if n := h.addrTables[addr]; n >= o.MaxPerAddr {
		h.mu.Unlock()
		return nil, fmt.Errorf("%w: %d running from %s (at most %d), finish one first", errAddrFull, n, addr, o.MaxPerAddr)
	}
	h.playing++
	h.addrTables[addr]++
	h.tableSeq++
	k := h.tableSeq
	h.mu.Unlock()
	release := func() {
		h.mu.Lock()
		h.playing--
		if h.addrTables[addr]--; h.addrTables[addr] <= 0 {
			delete(h.addrTables, addr)
		}
		h.mu.Unlock()
	}
	r := o.Rules
	f, err := players.New(o.House, r, nil)
	if err != nil {
		release()
		return nil, err
	}
	house := f(o.Key.Rand("web house", k))
	mine, theirs := players.RandomPlacement(r, o.Key.Rand("web person", k)), house.Place()
	g, err := submarine.NewGame(r, mine, theirs, 0)
	if err != nil {
		release()
		return nil, fmt.Errorf("house AI %s: %w", o.House, err)
	}
	t := &table{id: "web-" + id, secret: secret, addr: addr, acts: make(chan submarine.Action), change: make(chan struct{})}
	t.state = PlayState{ID: t.id, House: o.House, W: r.Board.Width(), H: r.Board.Height(), Timeout: o.Timeout.String(),
		Shots: map[int]string{}, Attacked: map[int]string{}}
	for _, c := range r.Board.Rocks() {
		t.state.Rocks = append(t.state.Rocks, int(c))
	}
	for i, s := range r.Fleet {
		t.state.Ships = append(t.state.Ships, s.Name)
		t.state.Fleet = append(t.state.Fleet, int(mine[i]))
		t.state.HP = append(t.state.HP, s.HP)
		t.state.EnemyHP = append(t.state.EnemyHP, s.HP)
	}
	h.mu.Lock()
	h.tables[t.id] = t
	h.mu.Unlock()
	peers := [2]server.Peer{{Addr: "browser", Name: "you (browser)"}, {Addr: "house", Name: o.House}}
	feed := server.NewFeed[submarine.Step](h, t.id, submarine.NewPublicView(g), peers, 0)
	rec := h.startRecord(k, r, peers, mine, theirs, house)
	go func() {
		defer release()
		h.runTable(t, g, house, peers, feed, rec)
	}()
	return t, nil
}

// runTable plays the game: the person's actions come from t.acts within
// the timeout, the house AI's from house.
func (h *Hub) runTable(t *table, g *submarine.Game, house players.Player, peers [2]server.Peer, feed *server.Feed[submarine.Step], rec *tableRecord) {
	r := g.Rules()
	var v submarine.View
	g.ViewInto(1, &v)
	house.Observe(submarine.Event{Kind: submarine.Invalid}, &v)
	res := server.Result{Game: t.id, Listener: WebListener, Dialect: WebListener, Rounds: 1, Round: 1, Players: peers, Winner: -1, Start: time.Now().UTC()}
	timer := time.NewTimer(h.play.Timeout)
	defer timer.Stop()
	for g.Status() == kgame.Running {
		var a submarine.Action
		if g.ToAct() == 0 {
			me := g.Fleet(0)
			timer.Reset(h.play.Timeout)
			due := time.Now().Add(h.play.Timeout)
			feed.ToAct(0, due)
			t.publish(func(s *PlayState) {
				t.deadline = due
				s.N, s.Turn = g.Actions(), true
				s.Reach = cellsOf(r.Reach(&me))
				s.Moves = make([][]int, len(r.Fleet))
				for i := range r.Fleet {
					s.Moves[i] = cellsOf(r.MoveTargets(&me, i))
				}
			})
		wait:
			for {
				select {
				case a = <-t.acts:
					if r.CheckAction(&me, a) == nil { // else checked against a past turn: ignored
						break wait
					}
				case <-timer.C: // taken as an invalid action, as the server takes a late client's
					a = submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
					res.Reason, res.Detail = server.ReasonTimeout, fmt.Sprintf("no action within %v", h.play.Timeout)
					res.Forfeits = []int{0}
					break wait
				}
			}
			t.publish(func(s *PlayState) { s.Turn, s.Reach, s.Moves = false, nil, nil })
		} else {
			feed.ToAct(1, time.Time{})
			a = house.Act()
		}
		st, err := g.Apply(a)
		feed.Step(g.Actions(), &st, err)
		rec.step(g.Actions(), &st, err)
		g.ViewInto(1, &v)
		if st.Seat == 1 {
			house.Observe(st.Actor, &v)
		} else {
			house.Observe(st.Other, &v)
		}
		text := h.lastText(t.id)
		me := g.Fleet(0)
		t.publish(func(s *PlayState) {
			s.Log = append(s.Log, text)
			marks := s.Shots
			if st.Seat == 1 {
				marks = s.Attacked
			}
			if err == nil && a.Kind == submarine.Attack {
				if st.Other.Hit != submarine.NoShip {
					marks[int(a.To)] = "X"
				} else if marks[int(a.To)] != "X" {
					marks[int(a.To)] = "o"
				}
			}
			s.Fleet, s.HP, s.EnemyHP = nil, nil, nil
			for i := range r.Fleet {
				s.Fleet = append(s.Fleet, int(me.Pos[i]))
				s.HP = append(s.HP, int(me.HP[i]))
				s.EnemyHP = append(s.EnemyHP, int(g.Fleet(1).HP[i]))
			}
		})
		if err != nil && res.Reason == "" {
			res.Reason, res.Detail = server.ReasonIllegal, err.Error()
		}
	}
	res.Actions = g.Actions()
	switch g.Status() {
	case kgame.Drawn:
		res.Outcome, res.Reason = server.OutcomeDraw, "draw limit"
	default:
		res.Outcome, res.Winner = server.OutcomeWin, g.Winner()
		if res.Reason == "" {
			res.Reason = "sunk"
		}
	}
	res.End = time.Now().UTC()
	h.record(rec, &res)
	h.Finished(res)
	h.mu.Lock()
	text := resultText(res, names(peers))
	h.mu.Unlock()
	t.publish(func(s *PlayState) { s.Over, s.Result = true, text })
}

// lastText is the words of the last move of game id.
func (h *Hub) lastText(id string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if g := h.games[id]; g != nil && len(g.events) > 0 {
		return g.events[len(g.events)-1].Text
	}
	return ""
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

// newTable is POST /play: it starts a game and answers its page's path.
func (h *Hub) newTable(w http.ResponseWriter, r *http.Request) {
	if !jsonOnly(w, r) {
		return
	}
	if _, err := io.Copy(io.Discard, r.Body); err != nil { // bounded in size and time by the server's limits
		http.Error(w, "bad request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	t, err := h.startTable(clientAddr(r))
	switch {
	case errors.Is(err, errAddrFull):
		http.Error(w, err.Error(), http.StatusTooManyRequests)
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

// Move is the person's action, as the page posts it.
type Move struct {
	Kind string `json:"kind"` // attack or move
	Ship int    `json:"ship"` // move: the ship's index
	To   int    `json:"to"`   // the cell
}

// act is POST /play/ID/act: an illegal action is refused (400) and the
// person may try again; it never forfeits the game.
func (h *Hub) act(w http.ResponseWriter, r *http.Request) {
	t, ok := h.table(w, r)
	if !ok {
		return
	}
	if !jsonOnly(w, r) {
		return
	}
	var m Move
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&m); err != nil {
		http.Error(w, "bad action: "+err.Error(), http.StatusBadRequest)
		return
	}
	s, _ := t.snapshot()
	if !s.Turn {
		http.Error(w, "not your turn", http.StatusConflict)
		return
	}
	var a submarine.Action
	switch {
	case m.Kind == "attack" && slices.Contains(s.Reach, m.To):
		a = submarine.AttackAt(grid.Cell(m.To))
	case m.Kind == "move" && m.Ship >= 0 && m.Ship < len(s.Moves) && slices.Contains(s.Moves[m.Ship], m.To):
		a = submarine.Action{Kind: submarine.Move, Ship: m.Ship, To: grid.Cell(m.To)}
	default:
		http.Error(w, "not a legal action: attack a cell next to one of your ships, or move a ship along its row or column", http.StatusBadRequest)
		return
	}
	select {
	case t.acts <- a: // the game is waiting for it
		w.WriteHeader(http.StatusAccepted)
	default:
		http.Error(w, "not your turn", http.StatusConflict)
	}
}
