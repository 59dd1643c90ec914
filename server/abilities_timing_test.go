package server

// The abilities timing measurement (docs/abilities.md, "Constant-shape
// answers"): games over real TCP with one seat's connection behind a proxy
// that delays every line by 2 ms each way, timed at the other seat.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
)

// delayProxy forwards TCP connections to target, holding everything it
// reads, in each direction, until delay after it arrived, as a network
// delay would: each read's bytes (one line, or lines written together)
// go on in one write, in order, none delayed by the ones before it.
type delayProxy struct {
	ln     net.Listener
	target string
	delay  time.Duration
	wg     sync.WaitGroup
}

func startDelayProxy(t *testing.T, target string, delay time.Duration) *delayProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &delayProxy{ln: ln, target: target, delay: delay}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.wg.Wait()
	})
	return p
}

func (p *delayProxy) addr() string { return p.ln.Addr().String() }

func (p *delayProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.wg.Add(2)
		go p.pipe(c, s)
		go p.pipe(s, c)
	}
}

// pipe copies from to to, each read's bytes delay after they were read;
// at the end of from it closes to's write side (both, when the copy
// failed).
func (p *delayProxy) pipe(from, to net.Conn) {
	defer p.wg.Done()
	type chunk struct {
		b  []byte
		at time.Time
	}
	q := make(chan chunk, 4096)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for c := range q {
			time.Sleep(time.Until(c.at.Add(p.delay)))
			if _, err := to.Write(c.b); err != nil {
				for range q { // drain: the reader stops at the closed end
				}
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			q <- chunk{b: slices.Clone(buf[:n]), at: time.Now()}
		}
		if err != nil {
			break
		}
	}
	close(q)
	<-done
	if tc, ok := to.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	from.Close()
}

// timingGame is what the two seats of one measured game record; mu guards
// it (each seat runs in its own goroutine).
type timingGame struct {
	mu sync.Mutex
	// lies: the cells the far seat answered a false miss on.
	lies grid.Set
	// moved[k]: the far seat moved a 1-deck in its k-th turn.
	moved map[int]bool
	// shots: the near seat's single shots answered miss, with the time
	// from sending the shot to reading its result.
	shots []timedShot
	// turns: the far seat's turns of one visible action, with the time
	// from the near seat's reading the end of its own turn to reading the
	// end of the far seat's.
	turns map[int]time.Duration
}

type timedShot struct {
	at grid.Cell
	d  time.Duration
}

// farSeat is the delayed seat: it plays inner and spends every false miss
// it is offered, and it records its moves.
type farSeat struct {
	inner abplayers.Player
	g     *timingGame
	seat  int
	turn  int // its turns ended so far
}

func (f *farSeat) Place() battleship.Placement { return f.inner.Place() }

func (f *farSeat) Act(q *abilities.Question) abilities.Action {
	a := f.inner.Act(q)
	if q != nil && q.Ask == abilities.AskFalseMiss {
		a = abilities.Action{Kind: abilities.Defend, Use: true}
		f.g.mu.Lock()
		f.g.lies.Add(q.At)
		f.g.mu.Unlock()
	}
	if q == nil && a.Kind == abilities.Move {
		f.g.mu.Lock()
		f.g.moved[f.turn] = true
		f.g.mu.Unlock()
	}
	return a
}

func (f *farSeat) Observe(ev abilities.Event) {
	f.inner.Observe(ev)
	if ev.Attacker == f.seat && ev.TurnEnd {
		f.turn++
	}
}

// nearSeat is the seat timed: it plays inner and records when it sends
// each shot and when it reads each result.
type nearSeat struct {
	inner abplayers.Player
	g     *timingGame
	seat  int
	// shot: the cell of the single shot sent and not answered yet (grid.None: none)
	shot   grid.Cell
	sentAt time.Time
	// farTurn counts the far seat's turns; ownEnd is when the near seat
	// read the end of its own last turn, seen the far seat's events since.
	farTurn int
	ownEnd  time.Time
	seen    int
}

func (n *nearSeat) Place() battleship.Placement { return n.inner.Place() }

func (n *nearSeat) Act(q *abilities.Question) abilities.Action {
	a := n.inner.Act(q)
	n.shot = grid.None
	if q == nil && a.Kind == abilities.Shoot {
		n.shot, n.sentAt = a.At, time.Now()
	}
	return a
}

func (n *nearSeat) Observe(ev abilities.Event) {
	now := time.Now()
	n.inner.Observe(ev)
	if ev.Attacker == n.seat {
		if n.shot != grid.None && ev.Kind == abilities.Shoot && len(ev.Cells) == 1 && ev.Cells[0].At == n.shot &&
			ev.Cells[0].Outcome == battleship.Miss && !ev.Cells[0].Repeat {
			n.g.mu.Lock()
			n.g.shots = append(n.g.shots, timedShot{at: n.shot, d: now.Sub(n.sentAt)})
			n.g.mu.Unlock()
		}
		n.shot = grid.None
		if ev.TurnEnd {
			n.ownEnd, n.seen = now, 0
		}
		return
	}
	n.seen++
	if ev.Kind == abilities.Reveal || ev.Kind == abilities.Defend { // the near seat's own answers: not timed
		n.seen++
	}
	if ev.TurnEnd {
		if n.seen == 1 && ev.Kind == abilities.Shoot && !n.ownEnd.IsZero() {
			n.g.mu.Lock()
			n.g.turns[n.farTurn] = now.Sub(n.ownEnd)
			n.g.mu.Unlock()
		}
		n.farTurn++
		n.ownEnd = time.Time{}
	}
}

// timingRun is the measurements of a run of games.
type timingRun struct {
	miss, lie       []time.Duration // the near seat's shot-to-result times
	plain, withMove []time.Duration // the far seat's turn times
	games           []time.Duration // each game's wall time at the near seat
}

// aucOf is the Mann-Whitney AUC of time as a classifier of pos against
// neg: the chance that a random pos time exceeds a random neg time, ties
// counted half.
func aucOf(pos, neg []time.Duration) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return 0.5
	}
	type v struct {
		d   time.Duration
		pos bool
	}
	all := make([]v, 0, len(pos)+len(neg))
	for _, d := range pos {
		all = append(all, v{d, true})
	}
	for _, d := range neg {
		all = append(all, v{d, false})
	}
	slices.SortFunc(all, func(a, b v) int { return cmp.Compare(a.d, b.d) })
	var rankSum float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].d == all[i].d {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1..j
		for k := i; k < j; k++ {
			if all[k].pos {
				rankSum += mid
			}
		}
		i = j
	}
	np, nn := float64(len(pos)), float64(len(neg))
	return (rankSum - np*(np+1)/2) / (np * nn)
}

func TestAUCOf(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		pos, neg []time.Duration
		want     float64
	}{
		{"separated", ms(5, 6, 7), ms(1, 2), 1},
		{"reversed", ms(1, 2), ms(5, 6, 7), 0},
		{"all tied", ms(3, 3), ms(3, 3, 3), 0.5},
		{"interleaved", ms(1, 3), ms(2, 4), 0.25},
		{"one tie", ms(2), ms(2, 1), 0.75},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.InDelta(t, tc.want, aucOf(tc.pos, tc.neg), 1e-12)
		})
	}
}

// TestAbilitiesTimingAUC is the measurement of docs/abilities.md: it plays
// KAISEN_AB_TIMING games (AI vs AI, hide_moves, ab-random both sides, 4 at
// a time) on a pair listener over loopback TCP, the far seat behind a
// proxy that delays every line 2 ms each way, and prints the AUC of time
// as a classifier of false misses against misses (at the near seat, the
// shooter) and of the far seat's turns with a hidden move against those
// without (one visible shot, at the near seat). It then asserts the goal
// of issue 25: both AUCs within [0.45, 0.55]. It is skipped unless
// KAISEN_AB_TIMING is set (it takes about a second a game):
//
//	KAISEN_AB_TIMING=300 go test -run TestAbilitiesTimingAUC -v ./server/
func TestAbilitiesTimingAUC(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KAISEN_AB_TIMING"))
	if n <= 0 {
		t.Skip("set KAISEN_AB_TIMING=GAMES to measure")
	}
	cfg := abilitiesConfig(t, OpponentPair)
	cfg.Listeners[0].Abilities.Sides = []string{"ai", "ai"}
	cfg.Listeners[0].Abilities.Options.HideMoves = true
	cfg.ReplayDir = ""
	ts := startServer(t, cfg)
	proxy := startDelayProxy(t, ts.addr(0), 2*time.Millisecond)
	run := measureTiming(t, ts.addr(0), proxy.addr(), n, 4)
	aMiss := aucOf(run.lie, run.miss)
	aMove := aucOf(run.withMove, run.plain)
	t.Logf("false misses %d, misses %d: median %v against %v; AUC %.3f",
		len(run.lie), len(run.miss), median(run.lie), median(run.miss), aMiss)
	t.Logf("far turns with a hidden move %d, without %d: median %v against %v; AUC %.3f",
		len(run.withMove), len(run.plain), median(run.withMove), median(run.plain), aMove)
	t.Logf("%d games, %d at a time: median wall time %v a game", n, 4, median(run.games))
	require.InDelta(t, 0.5, aMiss, 0.05, "false misses told apart from misses by time")
	require.InDelta(t, 0.5, aMove, 0.05, "turns with a hidden move told apart by time")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// measureTiming plays games games, par at a time: in each, a near client
// on near and a far client on far (the proxy), connected one pair at a
// time so that the pair listener seats them together.
func measureTiming(t *testing.T, near, far string, games, par int) timingRun {
	var (
		mu   sync.Mutex
		run  timingRun
		wg   sync.WaitGroup
		errs []error
	)
	sem := make(chan struct{}, par)
	for k := range games {
		sem <- struct{}{}
		g := &timingGame{moved: map[int]bool{}, turns: map[int]time.Duration{}}
		seated := make(chan struct{}, 2)
		play := func(addr string, build func(r *abilities.Rules, seat int, p abplayers.Player) abplayers.Player, seed uint64) error {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				return err
			}
			defer conn.Close()
			_, err = client.PlayAbilities(context.Background(), conn, func(r *abilities.Rules, seat int) (abplayers.Player, error) {
				seated <- struct{}{}
				f, err := abplayers.New("ab-random", r, nil)
				if err != nil {
					return nil, err
				}
				return build(r, seat, f(rand.New(rand.NewPCG(uint64(k), seed)), seat)), nil
			}, client.BattleshipPlayOptions{ReadTimeout: time.Minute})
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return err
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			err := play(far, func(_ *abilities.Rules, seat int, p abplayers.Player) abplayers.Player {
				return &farSeat{inner: p, g: g, seat: seat}
			}, 1)
			if err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("game %d far: %w", k, err))
				mu.Unlock()
			}
		}()
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			start := time.Now()
			err := play(near, func(_ *abilities.Rules, seat int, p abplayers.Player) abplayers.Player {
				return &nearSeat{inner: p, g: g, seat: seat, shot: grid.None}
			}, 2)
			wall := time.Since(start)
			g.mu.Lock()
			defer g.mu.Unlock()
			mu.Lock()
			defer mu.Unlock()
			run.games = append(run.games, wall)
			if err != nil {
				errs = append(errs, fmt.Errorf("game %d near: %w", k, err))
				return
			}
			for _, s := range g.shots {
				if g.lies.Has(s.at) {
					run.lie = append(run.lie, s.d)
				} else {
					run.miss = append(run.miss, s.d)
				}
			}
			for turn, d := range g.turns {
				if g.moved[turn] {
					run.withMove = append(run.withMove, d)
				} else {
					run.plain = append(run.plain, d)
				}
			}
		}()
		<-seated // both seated before the next pair connects
		<-seated
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	return run
}

// TestAbilitiesConstantShape: what a seat receives, and the "your turn"
// lines it waits for, are the same whether or not the enemy had a hidden
// choice. A shot the defender answers with a false miss and a real miss
// at the same cell (the defender's 4-deck elsewhere) give the shooter the
// same lines; while the defender does not answer, the shooter is told
// nothing of its shot either way (the defender disconnects instead of
// answering: the shooter has only the end of the game). A turn with a
// hidden move and one without give the enemy the same lines, and the
// mover the same number of "your turn". The result's action count
// (printed by the logs and the spectators' list page) is the same too.
func TestAbilitiesConstantShape(t *testing.T) {
	const (
		miss  = `{"shoot":{"to":[9,9]}}` // water in both fleets
		first = `{"shoot":{"to":[0,0]}}` // the 4-deck's first cell in hostileFleet, water in elsewhere
		lie   = `{"defend":{"use":true}}`
		move  = `{"move":{"from":[6,0],"to":[7,0]}}`
	)
	// elsewhere is hostileFleet with its 4-deck on row 8.
	elsewhere := strings.Replace(hostileFleet, `[[0,0],[0,1],[0,2],[0,3]]`, `[[8,0],[8,1],[8,2],[8,3]]`, 1)
	require.NotEqual(t, hostileFleet, elsewhere)
	var last Result // the result of play's game
	play := func(t *testing.T, opt abilities.Options, seats [2]*scripted) [2]*scripted {
		t.Helper()
		checkLeaks(t)
		cfg := abilitiesConfig(t, OpponentPair)
		cfg.Listeners[0].Abilities.Options = opt
		ts := startServer(t, cfg)
		playScripted(t, ts.addr(0), seats)
		r := ts.waitResults(t, 1)[0]
		require.Len(t, r.Forfeits, 1, r.Detail)
		verifyAbilitiesReplay(t, ts, r)
		last = r
		return seats
	}
	turns := func(lines []string) (n int) {
		for _, l := range lines {
			if l == protocol.YourTurn {
				n++
			}
		}
		return n
	}
	// The defender is seat 0 (AI: the false miss), the shooter seat 1
	// (Humans); seat 0 acts first and misses.
	t.Run("false miss and miss", func(t *testing.T) {
		lied := play(t, abilities.Options{}, [2]*scripted{{lines: []string{miss, lie, "garbage"}}, {lines: []string{first}}})
		liedActions := last.Actions
		missed := play(t, abilities.Options{}, [2]*scripted{{lines: []string{miss, "garbage"}, fleet: elsewhere}, {lines: []string{first}}})
		require.Equal(t, liedActions, last.Actions, "the result's action count (logs, list page)")
		require.Contains(t, lied[0].got, `{"result":{"seat":1,"action":"shoot","ask":{"kind":"false_miss","at":[0,0]}}}`, "a real question")
		require.Contains(t, missed[0].got, `{"confirm":{"at":[0,0]}}`, "a confirm")
		require.Contains(t, lied[1].got, `{"result":{"seat":1,"action":"shoot","cells":[{"position":[0,0],"outcome":"miss"}],"turn_end":true}}`)
		require.Equal(t, lied[1].got, missed[1].got, "the shooter's lines")
		require.Equal(t, turns(lied[1].got), turns(missed[1].got))
	})
	t.Run("defender does not answer", func(t *testing.T) {
		lied := play(t, abilities.Options{}, [2]*scripted{{lines: []string{miss, "CLOSE"}}, {lines: []string{first}}})
		missed := play(t, abilities.Options{}, [2]*scripted{{lines: []string{miss, "CLOSE"}, fleet: elsewhere, noConfirm: true}, {lines: []string{first}}})
		require.Equal(t, lied[1].got, missed[1].got, "the shooter's lines")
		for _, l := range missed[1].got {
			require.NotContains(t, l, `"seat":1,"action":"shoot"`, "the shooter is told its shot only once the defender answered")
		}
		require.Equal(t, protocol.YouWin, missed[1].got[len(missed[1].got)-1])
	})
	// The mover is seat 0 (first to act), its enemy seat 1, which
	// forfeits on its turn.
	t.Run("hidden move", func(t *testing.T) {
		hide := abilities.Options{HideMoves: true}
		moved := play(t, hide, [2]*scripted{{lines: []string{move, miss}}, {lines: []string{"garbage"}}})
		movedActions := last.Actions
		still := play(t, hide, [2]*scripted{{lines: []string{miss}}, {lines: []string{"garbage"}}})
		require.Equal(t, movedActions, last.Actions, "the result's action count (logs, list page)")
		require.Contains(t, moved[0].got, `{"result":{"seat":0,"action":"move","moved":{"from":[6,0],"to":[7,0]}}}`)
		require.Equal(t, moved[1].got, still[1].got, "the enemy's lines")
		require.Equal(t, turns(moved[0].got), turns(still[0].got), `the mover's "your turn" lines`)
	})
}
