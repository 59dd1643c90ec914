package web

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/games"
)

// PlayState is what the person's page shows, the same for every game: the
// board, the person's own fleet, the public answers of both sides'
// actions on both boards, what the person's seat was told, and the legal
// actions now, each with its label and the cell it points at. It never
// holds the house AI's fleet: the enemy board has only the public
// answers.
type PlayState struct {
	ID    string `json:"id"`
	Game  string `json:"game"`
	House string `json:"house"`
	// W and H are the board's size, Cols and Rows the names of its
	// columns and rows (as the game writes cells), Rocks its rocks.
	W     int      `json:"w"`
	H     int      `json:"h"`
	Cols  []string `json:"cols"`
	Rows  []string `json:"rows"`
	Rocks []int    `json:"rocks"`
	// Ships are the fleet's ships; PerShip: Fleet is one cell per ship,
	// in fleet order, else every ship cell.
	Ships   []string `json:"ships"`
	PerShip bool     `json:"per_ship"`
	Fleet   []int    `json:"fleet"` // the person's ships' cells
	// HP and EnemyHP are each side's public counters (HPNames names
	// them): the submarine's hp per ship, Battleship's cells afloat.
	HPNames []string `json:"hp_names"`
	HP      []int    `json:"hp"`
	EnemyHP []int    `json:"enemy_hp"`
	// Shots are the answers of the person's actions on the house's
	// waters, Attacked the house's on the person's: cell -> "X" (hit),
	// "#" (sunk), "o" (miss) or "-" (no shot happened).
	Shots    map[int]string `json:"shots"`
	Attacked map[int]string `json:"attacked"`
	N        int            `json:"n"`    // actions shown (the public log's)
	Seq      int            `json:"seq"`  // the person's turns so far
	Turn     bool           `json:"turn"` // the person's turn
	// Actions are the person's legal actions on their turn.
	Actions []Choice `json:"actions"`
	// Prompt is, on the person's turn, what the terminal seat says at it
	// (its boards, a pending question); Told is what the seat was told of
	// each action, in its words.
	Prompt  string   `json:"prompt,omitempty"`
	Told    []string `json:"told"`
	Timeout string   `json:"timeout"`
	// LeftMS is, on the person's turn, the milliseconds left for the
	// action when the state was sent (the page counts down from it).
	LeftMS int64    `json:"left_ms,omitempty"`
	Log    []string `json:"log"`
	Over   bool     `json:"over"`
	Result string   `json:"result,omitempty"`
}

// Choice is one legal action of the person's: Label names it (POST
// /play/ID/act sends it back); At is the cell it attacks on the house's
// waters, From and To a move of the person's ship on their own (-1: none).
type Choice struct {
	Label string `json:"label"`
	At    int    `json:"at"`
	From  int    `json:"from"`
	To    int    `json:"to"`
}

// offers reports whether label is one of the state's actions.
func (s *PlayState) offers(label string) bool {
	return slices.ContainsFunc(s.Actions, func(c Choice) bool { return c.Label == label })
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
	s.Told = s.Told[:len(s.Told):len(s.Told)]
	s.Shots, s.Attacked = maps.Clone(s.Shots), maps.Clone(s.Attacked)
	return s, t.change
}

// turnNow is the state's turn and actions with the inbox and end of the
// same turn (nil between turns).
func (t *table) turnNow() (PlayState, chan string, chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return PlayState{Turn: t.state.Turn, Actions: t.state.Actions}, t.inbox, t.turnEnd
}

func cellInts(cells []grid.Cell) []int {
	out := make([]int, 0, len(cells))
	for _, c := range cells {
		out = append(out, int(c))
	}
	return out
}

// webSeat is the person's side of a table's game (games.Person): it
// publishes what the person may see and takes their actions from the
// page.
type webSeat struct {
	h *Hub
	t *table
}

var _ games.Person = (*webSeat)(nil)

// Start implements games.Person: the board and the person's fleet.
func (p *webSeat) Start(pub kgame.Public, fleet []grid.Cell) {
	p.t.publish(func(s *PlayState) {
		s.W, s.H = pub.Board.Width(), pub.Board.Height()
		s.Cols, s.Rows, s.Ships, s.PerShip = pub.Cols, pub.Rows, pub.Ships, pub.PerShip
		s.Rocks = cellInts(pub.Board.Rocks())
		s.HPNames = make([]string, len(pub.HPNames))
		for i, n := range pub.HPNames {
			s.HPNames[i] = strings.TrimSpace(n)
		}
		s.HP, s.EnemyHP = slices.Clone(pub.HP), slices.Clone(pub.HP)
		s.Fleet = cellInts(fleet)
	})
	p.t.startOnce.Do(func() { close(p.t.started) })
}

// mark writes the answer m at cell c: a hit or a sunk ship stays marked
// when a later action on the cell misses (a ship moved away).
func mark(marks map[int]string, c grid.Cell, m string) {
	if c == grid.None {
		return
	}
	if old := marks[int(c)]; m == "o" && (old == "X" || old == "#") {
		return
	}
	marks[int(c)] = m
}

// Seen implements games.Person: a public action, logged in the
// spectators' words and marked on the board it aimed at.
func (p *webSeat) Seen(n int, e *kgame.Seen) {
	text := p.h.lastText(p.t.id)
	p.t.publish(func(s *PlayState) {
		s.N = n
		s.Log = append(s.Log, text)
		marks := s.Shots
		if e.Seat != 0 {
			marks = s.Attacked
		}
		answer := func(hit bool) string {
			if hit {
				return "X"
			}
			return "o"
		}
		mark(marks, e.At, answer(e.Hit))
		for _, sh := range e.Shots {
			if sh.Blocked {
				mark(marks, sh.At, "-")
			} else {
				mark(marks, sh.At, answer(sh.Hit))
			}
		}
		for _, c := range e.Sunk {
			mark(marks, c, "#")
		}
		if e.HP[0] != nil && e.HP[1] != nil {
			s.HP, s.EnemyHP = slices.Clone(e.HP[0]), slices.Clone(e.HP[1])
		}
	})
}

// Told implements games.Person: the seat's words and the fleet after them.
func (p *webSeat) Told(words string, fleet []grid.Cell) {
	words = strings.TrimSpace(words)
	p.t.publish(func(s *PlayState) {
		s.Fleet = cellInts(fleet)
		if words != "" {
			s.Told = append(s.Told, words)
		}
	})
}

// Act implements games.Person: the person's turn, until they send one of
// its actions or the time runs out (then -1: they forfeit, as the server
// takes a late client's action for an invalid one).
func (p *webSeat) Act(turn games.Turn) (int, string) {
	t := p.t
	var timeout <-chan time.Time
	if !turn.Due.IsZero() {
		timer := time.NewTimer(time.Until(turn.Due))
		defer timer.Stop()
		timeout = timer.C
	}
	choices := make([]Choice, len(turn.Choices))
	for i, c := range turn.Choices {
		choices[i] = Choice{Label: c.Label, At: int(c.Aim.At), From: int(c.Aim.From), To: int(c.Aim.To)}
	}
	inbox, end := make(chan string), make(chan struct{})
	t.publish(func(s *PlayState) {
		t.deadline, t.inbox, t.turnEnd = turn.Due, inbox, end
		s.Turn, s.Actions, s.Prompt = true, choices, turn.Prompt
		s.Seq++
	})
	defer t.publish(func(s *PlayState) {
		close(end)
		t.inbox, t.turnEnd = nil, nil
		s.Turn, s.Actions, s.Prompt = false, nil, ""
	})
	for {
		select {
		case label := <-inbox:
			if i := slices.IndexFunc(turn.Choices, func(c games.Choice) bool { return c.Label == label }); i >= 0 {
				return i, ""
			} // else not one of this turn's (the handler checked the state's): ignored
		case <-timeout:
			t.mu.Lock()
			t.timedOut = fmt.Sprintf("no action within %v", p.h.play.Timeout)
			why := t.timedOut
			t.mu.Unlock()
			return -1, "timeout: " + why
		}
	}
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
