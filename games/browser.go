package games

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/server"
)

// Browser is one game of a person against a house AI for a host that
// seats the person outside a terminal (internal/web's browser play): the
// person holds seat 0 and acts first, the host's Person takes their
// actions, and the game itself (rules, AIs, public view, the terminal
// seat's words, the replay) is the game's Def, written once here for
// every game (Game.Browse).
type Browser struct {
	// House is the house AI, one of the game's AIs ("": PlayDefault).
	House string
	// Listener, when set, is the server listener whose settings give the
	// rules, for a game whose wire reads them (Wire.Settings; else the
	// game's default rules), and the weights of its house AI (its
	// house_config) when House is its opponent.
	Listener *server.ListenerConfig
	// Rands are the person's stream (their random placement: the
	// terminal seat's "random") and the house AI's.
	Rands [2]*rand.Rand
	// Timeout is the person's time per action (0: none), which the
	// spectator is told with each of the person's turns.
	Timeout time.Duration
	// Spectator, when set, is told the game as the server's spectators
	// are told its own (server.Feed: the public view only), as game ID
	// between Peers.
	Spectator server.Spectator
	ID        string
	Peers     [2]server.Peer
	// Replay asks for the game's replay (BrowserResult.Replay), with
	// Header its header, for a game that writes replays.
	Replay bool
	Header arena.RecordHeader
	// Person is the person's side of the game.
	Person Person
}

// Choice is one legal action of the person's, as a page offers it.
type Choice struct {
	// Label is the action as the person would type it at a terminal
	// (the game's Text: Line); it names the action, and no other.
	Label string
	// Aim is where it points (game.Aimer; game.NoAim when the rules do not
	// say, or it points at no cell).
	Aim game.Aim
}

// Turn is one of the person's turns.
type Turn struct {
	Choices []Choice // the legal actions, in the rules' order (game.Legal)
	// Prompt is what the terminal seat says at the turn (its boards, a
	// pending question) and its prompt: the person's own view.
	Prompt string
	Due    time.Time // when the action is due (zero: no limit)
}

// Person is the person's side of a Browser game. Its methods are called
// by the game's goroutine, in order: Start once, then Seen, Told and Act
// as the game goes.
type Person interface {
	// Start is the game's start: its public view (game.View.Public) and
	// the person's own fleet.
	Start(pub game.Public, fleet []grid.Cell)
	// Seen is one action as its public view shows it (what the spectator
	// is told too), the n-th shown.
	Seen(n int, e *game.Seen)
	// Told is what the person's seat was told of one action, in the
	// terminal seat's words, and the person's fleet after it.
	Told(words string, fleet []grid.Cell)
	// Act is the person's turn: the index of the chosen action in
	// t.Choices, or -1 and why (no action in time): the person then
	// forfeits, by an action the rules refuse (Def.Illegal), as the server
	// takes a late client's, and why is the replay's reason.
	Act(t Turn) (choice int, why string)
}

// BrowserResult is how a Browser game ended.
type BrowserResult struct {
	game.Result
	// Forfeit is why the person forfeited by Person.Act ("" when they
	// did not).
	Forfeit string
	// Replay is the game's replay (nil: none asked, the game writes none,
	// or ReplayErr).
	Replay    []byte
	ReplayErr error
}

// ErrBrowser is wrapped by the errors of Game.Browse.
var ErrBrowser = errors.New("games: browser play")

// browsable says why the game d describes has no browser play ("" when it
// has): it needs the terminal seat's words, a public view, its moves
// listed and an action its rules always refuse.
func browsable[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) string {
	var rules R
	_, legal := any(rules).(game.Legal[G, A])
	switch {
	case d.Text == nil:
		return "no terminal seat (Def.Text)"
	case d.View == nil:
		return "no public view (Def.View)"
	case !legal:
		return "its rules do not list the legal actions (game.Legal)"
	case len(d.Illegal) == 0:
		return "no action its rules always refuse (Def.Illegal)"
	}
	return ""
}

// defBrowse is the Browse of the game d describes: it checks b and builds
// the game, which the returned function plays to its end.
func defBrowse[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O], b Browser) (func() BrowserResult, error) {
	rules, err := defaultRules(d)
	if b.Listener != nil && d.Wire != nil && d.Wire.Settings != nil {
		rules, err = d.Wire.Settings(*b.Listener)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s rules: %w", ErrBrowser, d.Name, err)
	}
	if b.House == "" {
		b.House = d.PlayDefault
	}
	var load roster.Loader // the listener's house_config, for its own house AI
	if l := b.Listener; l != nil && l.Opponent == b.House {
		load = config.File(l.HouseConfig)
	}
	house, err := d.AIs.New(b.House, rules, load)
	if err != nil {
		return nil, fmt.Errorf("%w: house AI: %w", ErrBrowser, err)
	}
	if b.Person == nil || b.Rands[0] == nil || b.Rands[1] == nil {
		return nil, fmt.Errorf("%w: a person and both random streams are required", ErrBrowser)
	}
	s := &browse[R, G, P, A, S, O]{d: d, b: &b, rules: rules, legal: any(rules).(game.Legal[G, A])}
	s.aim, _ = any(rules).(game.Aimer[G, A])
	s.tab = game.NewTable(game.Rules[G, P, A, S, O](rules), nil)
	var local *human.Local[G, P, A, S, O]
	if d.Local != nil {
		local = d.Local(rules)
	}
	rec := &browseRecord[R, G, P, A, S, O]{s: s}
	if b.Replay {
		switch {
		case local != nil && local.Record != nil:
			rec.inner = local.Record(&rec.buf, b.Header)
		case local == nil && d.Record != nil:
			rec.inner = d.Record(rules, &rec.buf, b.Header)
		}
	}
	setup := &game.Setup[P, A, S, O]{Rands: b.Rands, First: 0, Record: rec, Explain: rec.inner != nil}
	setup.Factories[0] = func(rng *rand.Rand, _ int) game.Player[P, A, O] {
		s.text = d.Text(rules, 0, &s.words, rng)
		return &browsePerson[R, G, P, A, S, O]{s: s}
	}
	setup.Factories[1] = func(rng *rand.Rand, seat int) game.Player[P, A, O] {
		p := house(rng, seat)
		if local != nil && local.AI != nil {
			p = local.AI(p)
		}
		return &browseHouse[R, G, P, A, S, O]{s: s, Player: p}
	}
	return func() BrowserResult {
		res := BrowserResult{Result: s.tab.Play(setup), Forfeit: s.forfeit}
		if rec.inner != nil {
			if res.ReplayErr = rec.inner.Flush(); res.ReplayErr == nil {
				res.Replay = rec.buf.Bytes()
			}
		}
		return res
	}, nil
}

// browse is one Browser game in play.
type browse[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	d     Def[R, G, P, A, S, O]
	b     *Browser
	rules R
	legal game.Legal[G, A]
	aim   game.Aimer[G, A] // nil: the rules do not say
	tab   *game.Table[G, P, A, S, O]
	// text is the person's terminal seat, writing to words.
	text  human.Text[P, A, O]
	words bytes.Buffer
	// view and feed are the public view of the game, from its start.
	view    game.View[S]
	feed    *server.Feed[S]
	shown   int    // the actions the view showed
	forfeit string // why the person forfeited (Person.Act)
}

// start tells the spectator and the person that the game started, once:
// at the first action or observation, the Table having started the game.
func (s *browse[R, G, P, A, S, O]) start() {
	if s.view != nil {
		return
	}
	s.view = s.d.View(s.tab.Game())
	s.feed = server.NewFeed[S](browseSpy[R, G, P, A, S, O]{s}, s.b.ID, s.view, s.b.Peers, 0)
	s.b.Person.Start(s.view.Public(), s.view.Fleets()[0])
}

// said is what the terminal seat wrote since the last call.
func (s *browse[R, G, P, A, S, O]) said() string {
	out := s.words.String()
	s.words.Reset()
	return out
}

// browsePerson is the person's seat (game.Player): its placement is the
// terminal seat's random one, its actions the Person's choices.
type browsePerson[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	s *browse[R, G, P, A, S, O]
}

func (p *browsePerson[R, G, P, A, S, O]) Place() P {
	pl, ok := p.s.text.Place("random", false)
	p.s.said()
	if !ok {
		var none P // refused: the person forfeits the placement
		return none
	}
	return pl
}

func (p *browsePerson[R, G, P, A, S, O]) Act() A {
	s := p.s
	s.start()
	var due time.Time
	if s.b.Timeout > 0 {
		due = time.Now().Add(s.b.Timeout)
	}
	s.feed.ToAct(0, due)
	g := s.tab.Game()
	acts := s.legal.Legal(g)
	t := Turn{Due: due, Choices: make([]Choice, len(acts))}
	for i, a := range acts {
		t.Choices[i] = Choice{Label: s.text.Line(a), Aim: game.NoAim}
		if s.aim != nil {
			t.Choices[i].Aim = s.aim.Aim(g, a)
		}
	}
	s.said()
	prompt := s.text.Turn()
	t.Prompt = s.said() + prompt
	i, why := s.b.Person.Act(t)
	if i < 0 || i >= len(acts) {
		s.forfeit = why
		return s.d.Illegal[0]
	}
	s.text.Act(t.Choices[i].Label) // the terminal seat keeps what it sent (abilities used this turn)
	s.said()
	return acts[i]
}

func (p *browsePerson[R, G, P, A, S, O]) Observe(o O) {
	s := p.s
	s.start()
	s.said()
	s.text.Tell(o)
	s.b.Person.Told(s.said(), s.view.Fleets()[0])
}

// browseHouse is the house AI's seat: the spectator is told its turns.
type browseHouse[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	game.Player[P, A, O]
	s *browse[R, G, P, A, S, O]
}

func (h *browseHouse[R, G, P, A, S, O]) Act() A {
	h.s.start()
	h.s.feed.ToAct(1, time.Time{})
	return h.Player.Act()
}

// Unwrap implements game.Wrapper: the house AI's reasons reach the replay.
func (h *browseHouse[R, G, P, A, S, O]) Unwrap() any { return h.Player }

// browseRecord takes the game down: the spectator and the person see
// each action's public view, and the replay, when asked, gets it all.
type browseRecord[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	s     *browse[R, G, P, A, S, O]
	inner arena.Recorder[P, A, S] // nil: no replay
	buf   bytes.Buffer
}

func (r *browseRecord[R, G, P, A, S, O]) Placement(seat int, p P, ok bool) {
	if r.inner != nil {
		r.inner.Placement(seat, p, ok)
	}
}

func (r *browseRecord[R, G, P, A, S, O]) Action(n, seat int, a A, st *S, err error, d *explain.Decision) {
	if r.inner != nil {
		r.inner.Action(n, seat, a, st, err, d)
	}
	r.s.start()
	r.s.feed.Step(n, st, err) // browseSpy numbers the steps shown
}

func (r *browseRecord[R, G, P, A, S, O]) Result(res *game.Result) {
	if r.inner == nil {
		return
	}
	if why := r.s.forfeit; why != "" && res.Forfeits[0].Kind == game.ForfeitIllegal {
		c := *res
		c.Forfeits[0].Reason = why
		res = &c
	}
	r.inner.Result(res)
}

// browseSpy is the spectator of a Browser game: the Browser's, and the
// person, who sees every public step too.
type browseSpy[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	s *browse[R, G, P, A, S, O]
}

func (sp browseSpy[R, G, P, A, S, O]) Started(id string, pub game.Public, players [2]server.Peer, first int) {
	if in := sp.s.b.Spectator; in != nil {
		in.Started(id, pub, players, first)
	}
}

func (sp browseSpy[R, G, P, A, S, O]) Step(id string, _ int, e *game.Seen) {
	sp.s.shown++
	if in := sp.s.b.Spectator; in != nil {
		in.Step(id, sp.s.shown, e)
	}
	sp.s.b.Person.Seen(sp.s.shown, e)
}

func (sp browseSpy[R, G, P, A, S, O]) Finished(server.Result) {} // the host tells its spectator

// ToAct implements server.Turner for a spectator that is one.
func (sp browseSpy[R, G, P, A, S, O]) ToAct(id string, seat int, due time.Time) {
	if tu, ok := sp.s.b.Spectator.(server.Turner); ok {
		tu.ToAct(id, seat, due)
	}
}

// Reveals implements server.Revealer: as the Browser's spectator does.
func (sp browseSpy[R, G, P, A, S, O]) Reveals() bool {
	rv, ok := sp.s.b.Spectator.(server.Revealer)
	return ok && rv.Reveals()
}

// Fleets implements server.Revealer: only a spectator that reveals
// (Reveals) is told the fleets; the person never is.
func (sp browseSpy[R, G, P, A, S, O]) Fleets(id string, fleets [2][]grid.Cell) {
	if rv, ok := sp.s.b.Spectator.(server.Revealer); ok && rv.Reveals() {
		rv.Fleets(id, fleets)
	}
}
