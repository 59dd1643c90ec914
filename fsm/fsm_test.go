package fsm

import (
	"context"
	"errors"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	lfsm "github.com/looplab/fsm"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
)

var update = flag.Bool("update", false, "rewrite the diagram in ../docs/fsm.md")

// msgFor is a valid message for destination state s.
func msgFor(s State) Msg {
	switch s {
	case Attack:
		return CellMsg(12)
	case Escape, Stealth:
		return ShipMsg(1)
	default:
		return NoMsg
	}
}

// machineIn returns a machine driven into state s through real events.
func machineIn(t *testing.T, s State) *Machine {
	t.Helper()
	m := New()
	ctx := context.Background()
	switch s {
	case Attack:
		require.NoError(t, m.Fire(ctx, Pinned, CellMsg(3)))
	case Escape:
		require.NoError(t, m.Fire(ctx, Hit, ShipMsg(0)))
	case Stealth:
		require.NoError(t, m.Fire(ctx, LastShip, ShipMsg(2)))
	}
	require.Equal(t, s, m.State())
	require.Equal(t, s.String(), m.f.Current(), "mirror and looplab/fsm agree")
	return m
}

func TestEveryTransition(t *testing.T) {
	for _, tr := range table {
		for _, src := range tr.Src {
			t.Run(tr.Event.String()+"/"+src.String(), func(t *testing.T) {
				m := machineIn(t, src)
				require.True(t, m.Can(tr.Event))
				msg := msgFor(tr.Dst)
				before := m.Fired()
				require.NoError(t, m.Fire(context.Background(), tr.Event, msg))
				require.Equal(t, tr.Dst, m.State())
				require.Equal(t, tr.Dst.String(), m.f.Current())
				require.Equal(t, msg, m.Msg())
				require.Equal(t, before+1, m.Fired(), "went through looplab/fsm")
			})
		}
	}
}

func TestInvalidEvents(t *testing.T) {
	n := 0
	for _, s := range States() {
		for _, ev := range Events() {
			if _, ok := Next(s, ev); ok {
				continue
			}
			n++
			t.Run(ev.String()+"/"+s.String(), func(t *testing.T) {
				m := machineIn(t, s)
				msg0 := m.Msg()
				require.False(t, m.Can(ev))
				err := m.Fire(context.Background(), ev, CellMsg(1))
				require.ErrorIs(t, err, ErrInvalidEvent)
				var lerr lfsm.InvalidEventError
				require.ErrorAs(t, err, &lerr, "looplab/fsm rejected it itself")
				require.Equal(t, ev.String(), lerr.Event)
				require.Equal(t, s, m.State())
				require.Equal(t, msg0, m.Msg())
			})
		}
	}
	require.Positive(t, n, "the table does not allow everything everywhere")
}

func TestUnknownEvent(t *testing.T) {
	m := New()
	err := m.Fire(context.Background(), numEvents, NoMsg)
	require.ErrorIs(t, err, ErrUnknownEvent)
	require.Equal(t, Sakuteki, m.State())
	_, ok := Next(Sakuteki, numEvents)
	require.False(t, ok)
	_, ok = Next(numStates, Pinned)
	require.False(t, ok)
}

func TestBadMessageIsCancelled(t *testing.T) {
	tests := []struct {
		name string
		from State
		ev   Event
		msg  Msg
	}{
		{"attack wants a cell", Sakuteki, Pinned, ShipMsg(0)},
		{"attack wants only a cell", Sakuteki, Exhausted, Msg{Cell: 3, Ship: 1}},
		{"escape wants a ship", Attack, Hit, CellMsg(4)},
		{"stealth wants a ship", Sakuteki, LastShip, NoMsg},
		{"sakuteki takes nothing", Attack, GiveUp, CellMsg(4)},
		{"self-transition checked too", Attack, Pinned, NoMsg},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := machineIn(t, tc.from)
			msg0, fired0 := m.Msg(), m.Fired()
			err := m.Fire(context.Background(), tc.ev, tc.msg)
			require.ErrorIs(t, err, ErrMsg)
			require.Equal(t, tc.from, m.State())
			require.Equal(t, tc.from.String(), m.f.Current())
			require.Equal(t, msg0, m.Msg())
			require.Equal(t, fired0, m.Fired())
		})
	}
}

// TestRawLooplabArguments drives the looplab/fsm machine underneath directly:
// the before_event callback cancels events without exactly one Msg.
func TestRawLooplabArguments(t *testing.T) {
	m := New()
	ctx := context.Background()
	err := m.f.Event(ctx, Pinned.String(), 12)
	var c lfsm.CanceledError
	require.ErrorAs(t, err, &c)
	require.ErrorIs(t, c.Err, ErrMsg)
	require.ErrorIs(t, m.f.Event(ctx, Pinned.String()), ErrMsg)
	require.Equal(t, Sakuteki, m.State())
	require.Equal(t, "sakuteki", m.f.Current())

	msg := CellMsg(4)
	require.NoError(t, m.f.Event(ctx, Pinned.String(), &msg))
	require.Equal(t, Attack, m.State())
	require.Equal(t, msg, m.Msg())
}

func TestSelfTransitionIsSuccess(t *testing.T) {
	ctx := context.Background()
	m := machineIn(t, Attack)
	fired := m.Fired()

	// Same state, new target: looplab/fsm answers NoTransitionError{nil}.
	err := m.f.Event(ctx, Pinned.String(), CellMsg(9))
	var nt lfsm.NoTransitionError
	require.ErrorAs(t, err, &nt)
	require.NoError(t, nt.Err)
	require.Equal(t, CellMsg(9), m.Msg(), "after_event ran for the self-transition")

	require.NoError(t, m.Fire(ctx, Pinned, CellMsg(7)))
	require.Equal(t, Attack, m.State())
	require.Equal(t, CellMsg(7), m.Msg())
	require.Equal(t, fired+2, m.Fired())

	// Same state, same target: a no-op that skips looplab/fsm.
	require.NoError(t, m.Fire(ctx, Pinned, CellMsg(7)))
	require.Equal(t, fired+2, m.Fired())

	s := machineIn(t, Stealth)
	require.NoError(t, s.Fire(ctx, LastShip, ShipMsg(0)))
	require.Equal(t, ShipMsg(0), s.Msg())
}

func TestRestore(t *testing.T) {
	m := New()
	require.NoError(t, m.Restore(Escape, ShipMsg(2)))
	require.Equal(t, Escape, m.State())
	require.Equal(t, "escape", m.f.Current())
	require.Equal(t, ShipMsg(2), m.Msg())
	require.NoError(t, m.Fire(context.Background(), Escaped, NoMsg), "events continue from the restored state")
	require.Equal(t, Sakuteki, m.State())

	require.ErrorIs(t, m.Restore(Attack, ShipMsg(1)), ErrMsg)
	require.ErrorIs(t, m.Restore(State(7), NoMsg), ErrUnknownState)
	require.Equal(t, Sakuteki, m.State(), "unchanged on error")
}

func TestCancelledContext(t *testing.T) {
	m := New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := m.Fire(ctx, Pinned, CellMsg(2))
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, Sakuteki, m.State())
	require.Equal(t, NoMsg, m.Msg())
}

// TestTableMatchesLooplab checks that the looplab/fsm machine built from the
// table allows exactly the table's events in every state.
func TestTableMatchesLooplab(t *testing.T) {
	for _, s := range States() {
		f := lfsm.NewFSM(s.String(), lfsmEvents(), nil)
		got := f.AvailableTransitions()
		slices.Sort(got)
		var want []string
		for _, ev := range Events() {
			if _, ok := Next(s, ev); ok {
				want = append(want, ev.String())
			}
		}
		slices.Sort(want)
		require.Equal(t, want, got, s.String())
	}
}

func TestTableShape(t *testing.T) {
	seen := map[Event]bool{}
	for _, tr := range Table() {
		require.False(t, seen[tr.Event], "event %s listed once", tr.Event)
		seen[tr.Event] = true
		require.True(t, tr.Dst.Valid())
		require.NotEmpty(t, tr.Src)
		require.NotEmpty(t, tr.When)
		src := map[State]bool{}
		for _, s := range tr.Src {
			require.False(t, src[s], "%s lists %s twice", tr.Event, s)
			src[s] = true
		}
	}
	require.Len(t, seen, int(numEvents), "every event has a row")

	// Every state is reachable from the initial state and can be left.
	reach := map[State]bool{Sakuteki: true}
	for range States() {
		for _, tr := range table {
			for _, s := range tr.Src {
				if reach[s] {
					reach[tr.Dst] = true
				}
			}
		}
	}
	for _, s := range States() {
		require.True(t, reach[s], "%s reachable", s)
		out := false
		for _, ev := range Events() {
			if d, ok := Next(s, ev); ok && d != s {
				out = true
			}
		}
		require.True(t, out, "%s can be left", s)
	}

	// Table returns a copy.
	cp := Table()
	cp[0].Src[0] = Stealth
	require.Equal(t, Sakuteki, table[0].Src[0])
}

func TestCheckCallbacks(t *testing.T) {
	require.NoError(t, CheckCallbacks(New().callbacks()), "the machine's own callbacks")

	noop := func(context.Context, *lfsm.Event) {}
	good := []string{
		"before_event", "after_event", "leave_state", "enter_state",
		"before_pinned", "after_last_ship", "leave_escape", "enter_stealth",
		"sakuteki", "give_up",
	}
	for _, k := range good {
		require.NoError(t, CheckCallbacks(lfsm.Callbacks{k: noop}), k)
	}
	bad := []string{
		"enter_sakuteky", "before_hitt", "after_attack", "leave_pinned",
		"enter_events", "attak", "before_", "on_enter_attack", "",
	}
	for _, k := range bad {
		err := CheckCallbacks(lfsm.Callbacks{k: noop, "after_event": noop})
		require.ErrorIs(t, err, ErrCallback, k)
		require.Contains(t, err.Error(), `"`+k+`"`)
	}
	err := CheckCallbacks(lfsm.Callbacks{"enter_atack": noop, "before_hitt": noop})
	require.ErrorContains(t, err, `"before_hitt"`)
	require.ErrorContains(t, err, `"enter_atack"`)
}

func TestParse(t *testing.T) {
	for _, s := range States() {
		got, err := ParseState(s.String())
		require.NoError(t, err)
		require.Equal(t, s, got)
	}
	for _, ev := range Events() {
		got, err := ParseEvent(ev.String())
		require.NoError(t, err)
		require.Equal(t, ev, got)
	}
	for _, f := range Formats() {
		got, err := ParseFormat(string(f))
		require.NoError(t, err)
		require.Equal(t, f, got)
	}
	_, err := ParseState("Attack")
	require.ErrorIs(t, err, ErrUnknownState)
	_, err = ParseEvent("pin")
	require.ErrorIs(t, err, ErrUnknownEvent)
	_, err = ParseFormat("svg")
	require.ErrorIs(t, err, ErrFormat)
	_, err = Diagram("svg")
	require.ErrorIs(t, err, ErrFormat)
	require.Equal(t, "state(9)", State(9).String())
	require.Equal(t, "event(99)", Event(99).String())
	require.ErrorIs(t, CheckMsg(State(9), NoMsg), ErrUnknownState)
}

func TestMsgString(t *testing.T) {
	require.Equal(t, "cell 7", CellMsg(7).String())
	require.Equal(t, "ship 2", ShipMsg(2).String())
	require.Equal(t, "-", NoMsg.String())
	require.Equal(t, "cell 1 ship 1", Msg{Cell: 1, Ship: 1}.String())
	require.Equal(t, grid.None, ShipMsg(0).Cell)
}

func TestDiagrams(t *testing.T) {
	edges := 0
	for _, tr := range table {
		edges += len(tr.Src)
	}
	mm, err := Diagram(Mermaid)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(mm, "stateDiagram-v2\n    [*] --> sakuteki\n"))
	require.Equal(t, edges, strings.Count(mm, ": "))
	require.Contains(t, mm, "    escape --> attack: cornered\n")

	dot, err := Diagram(Dot)
	require.NoError(t, err)
	require.Equal(t, edges, strings.Count(dot, "[label="))
	require.Contains(t, dot, `"stealth" -> "sakuteki" [label="give_up"];`)
	require.True(t, strings.HasSuffix(dot, "}\n"))

	txt, err := Diagram(Text)
	require.NoError(t, err)
	for _, ev := range Events() {
		require.Contains(t, txt, ev.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteDiagramError(t *testing.T) {
	err := WriteDiagram(failWriter{}, Dot)
	require.ErrorContains(t, err, "fsm: write diagram: disk full")
}

const docPath = "../docs/fsm.md"

// TestDocDiagram checks that the Mermaid block committed in docs/fsm.md is the
// one generated from the table (go test ./fsm -update rewrites it).
func TestDocDiagram(t *testing.T) {
	want, err := Diagram(Mermaid)
	require.NoError(t, err)
	raw, err := os.ReadFile(docPath)
	require.NoError(t, err)
	doc := string(raw)
	const open, closing = "```mermaid\n", "```\n"
	i := strings.Index(doc, open)
	require.GreaterOrEqual(t, i, 0, "docs/fsm.md has a mermaid block")
	j := strings.Index(doc[i+len(open):], closing)
	require.GreaterOrEqual(t, j, 0, "the mermaid block is closed")
	got := doc[i+len(open) : i+len(open)+j]
	if *update {
		doc = doc[:i+len(open)] + want + doc[i+len(open)+j:]
		require.NoError(t, os.WriteFile(docPath, []byte(doc), 0o644))
		return
	}
	require.Equal(t, want, got, "docs/fsm.md is stale: run go test ./fsm -update")
}

func BenchmarkFire(b *testing.B) {
	ctx := context.Background()
	m := New()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = m.Fire(ctx, Pinned, CellMsg(grid.Cell(i%25)))
		_ = m.Fire(ctx, GiveUp, NoMsg)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"sakuteki", "give_up", "mermaid", "", "attack ", "ATTACK"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if st, err := ParseState(s); err == nil {
			require.Equal(t, s, st.String())
		} else {
			require.ErrorIs(t, err, ErrUnknownState)
		}
		if ev, err := ParseEvent(s); err == nil {
			require.Equal(t, s, ev.String())
			require.True(t, callbackKeyOK("before_"+s))
		} else {
			require.ErrorIs(t, err, ErrUnknownEvent)
		}
		if fm, err := ParseFormat(s); err == nil {
			require.Equal(t, s, string(fm))
		} else {
			require.ErrorIs(t, err, ErrFormat)
		}
		_ = callbackKeyOK(s)
	})
}
