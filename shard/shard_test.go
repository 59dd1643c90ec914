package shard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/tournament"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
		err  bool
	}{
		{"1/1", Spec{1, 1}, false},
		{"3/8", Spec{3, 8}, false},
		{"8/8", Spec{8, 8}, false},
		{"0/8", Spec{}, true},
		{"9/8", Spec{}, true},
		{"1/0", Spec{}, true},
		{"-1/2", Spec{}, true},
		{"3", Spec{}, true},
		{"a/b", Spec{}, true},
		{"", Spec{}, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in)
			if tc.err {
				require.ErrorIs(t, err, ErrSpec)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.in, got.String())
		})
	}
}

// TestRange: the shards of n games are contiguous, in order, cover every
// game once and differ in size by at most one, whether N divides n or not.
func TestRange(t *testing.T) {
	for _, tc := range []struct{ games, shards int }{
		{10, 1}, {10, 2}, {10, 3}, {101, 3}, {7, 7}, {3, 5}, {1000, 7}, {1, 1},
	} {
		t.Run(fmt.Sprintf("%d/%d", tc.games, tc.shards), func(t *testing.T) {
			next, small, big := 0, tc.games, 0
			for k := 1; k <= tc.shards; k++ {
				lo, hi := Spec{k, tc.shards}.Range(tc.games)
				require.Equal(t, next, lo, "shard %d starts where %d ended", k, k-1)
				require.LessOrEqual(t, lo, hi)
				small, big = min(small, hi-lo), max(big, hi-lo)
				next = hi
			}
			assert.Equal(t, tc.games, next, "the last shard ends at the last game")
			assert.LessOrEqual(t, big-small, 1)
		})
	}
	lo, hi := Spec{2, 3}.Range(101)
	assert.Equal(t, [2]int{33, 67}, [2]int{lo, hi})
}

func header(k, n, games int) Header {
	lo, hi := Spec{k, n}.Range(games)
	return Header{Command: "match", Args: map[string]string{"p1": "random"}, Seed: 7, Games: games,
		Shard: k, Shards: n, First: lo, Count: hi - lo, ElapsedNS: 1e6, Workers: 2}
}

func write(t *testing.T, h Header, result any) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, Write(&b, h, result))
	return b.Bytes()
}

func TestWriteRead(t *testing.T) {
	h := header(2, 3, 10)
	data := write(t, h, Match{Game: "submarine", Games: 3, P1Wins: 3, Lengths: Hist{{5, 2}, {9, 1}}})
	assert.Equal(t, 2, bytes.Count(data, []byte("\n")), "two JSON lines")
	f, err := Read(bytes.NewReader(data), "s2")
	require.NoError(t, err)
	h.Format, h.Version = Format, 1
	assert.Equal(t, h, f.Header, "a file without an audit is of version 1, which older readers read")
	assert.Equal(t, "s2", f.Name)
	assert.JSONEq(t, `{"game":"submarine","p1":"","p2":"","games":3,"p1_wins":3,"p2_wins":0,"draws":0,
		"p1_forfeits":0,"p2_forfeits":0,"seat0_wins":0,"actions":0,"p1_shots":0,"p2_shots":0,"lengths":[[5,2],[9,1]]}`, string(f.Result))
}

func TestReadRefuses(t *testing.T) {
	good := string(write(t, header(1, 2, 10), map[string]int{"games": 5}))
	lines := strings.SplitN(good, "\n", 2)
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "got 0 lines"},
		{"header only", lines[0] + "\n", "got 1 lines"},
		{"three lines", good + "{}\n", "more than two lines"},
		{"not json", "hello\n{}\n", "header"},
		{"other format", strings.Replace(good, Format, "other", 1), `format "other"`},
		{"newer version", strings.Replace(good, `"version":1`, `"version":3`, 1), "version 3, this kaisen reads versions 1 to 2"},
		{"version 0", strings.Replace(good, `"version":1`, `"version":0`, 1), "version 0"},
		{"unknown header key", strings.Replace(good, `"seed"`, `"colour":1,"seed"`, 1), "unknown field"},
		{"first off", strings.Replace(good, `"count":5`, `"count":6`, 1), "covers games 0..4"},
		{"shard beyond N", strings.Replace(good, `"shard":1`, `"shard":3`, 1), "1 <= K <= N"},
		{"result not an object", lines[0] + "\n[1,2]\n", "not a JSON object"},
		{"result not json", lines[0] + "\n{\"a\":\n", "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.data), "f")
			require.ErrorIs(t, err, ErrFormat)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestCheck(t *testing.T) {
	file := func(name string, h Header) File { return File{Name: name, Header: h} }
	s1, s2, s3 := file("a", header(1, 3, 10)), file("b", header(2, 3, 10)), file("c", header(3, 3, 10))
	got, err := Check([]File{s3, s1, s2})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, []string{got[0].Name, got[1].Name, got[2].Name}, "in shard order")

	mod := func(f File, change func(h *Header)) File {
		f.Header.Args = map[string]string{"p1": "random"}
		change(&f.Header)
		return f
	}
	for _, tc := range []struct {
		name  string
		files []File
		want  string
	}{
		{"none", nil, "no shard files"},
		{"missing", []File{s1, s3}, "missing shard(s) 2 of 3"},
		{"twice", []File{s1, s2, s2, s3}, "shard 2/3 twice: b and b"},
		{"seed", []File{s1, mod(s2, func(h *Header) { h.Seed = 8 }), s3}, "b has seed 8, not 7"},
		{"command", []File{s1, mod(s2, func(h *Header) { h.Command = "shots" }), s3}, `command "shots"`},
		{"args", []File{s1, mod(s2, func(h *Header) { h.Args["p2"] = "admiral" }), s3}, "arguments --p1=random --p2=admiral"},
		{"games", []File{s1, mod(s2, func(h *Header) { h.Games = 11 }), s3}, "11 games, not 10"},
		{"shards", []File{s1, s2, file("d", header(3, 4, 10))}, "4 shards, not 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(tc.files)
			require.ErrorIs(t, err, ErrMismatch)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestHist(t *testing.T) {
	a := HistOf([]int{5, 3, 5, 9})
	assert.Equal(t, Hist{{3, 1}, {5, 2}, {9, 1}}, a)
	b := HistOf([]int32{1, 5, 10, 10})
	m := a.Merge(b)
	assert.Equal(t, Hist{{1, 1}, {3, 1}, {5, 3}, {9, 1}, {10, 2}}, m)
	assert.Equal(t, m, b.Merge(a), "commutative")
	assert.Equal(t, int64(8), m.Total())
	assert.Equal(t, []int{1, 3, 5, 5, 5, 9, 10, 10}, Expand[int](m))
	require.NoError(t, m.Validate())
	require.ErrorIs(t, Hist{{3, 1}, {3, 1}}.Validate(), ErrFormat)
	require.ErrorIs(t, Hist{{3, 0}}.Validate(), ErrFormat)
	assert.Empty(t, Hist(nil).Merge(nil))
}

// TestMergeMatch: the merged summary of the parts of a list of games is
// the summary of the list, p90 included.
func TestMergeMatch(t *testing.T) {
	whole := []int32{10, 40, 20, 30, 50, 60, 70, 80, 90, 100, 15}
	part := func(ls []int32, wins int) Match {
		return Match{Game: "submarine", P1: "a", P2: "b", Games: len(ls), P1Wins: wins, P2Wins: len(ls) - wins,
			Actions: int64(arena.Mean(ls) * float64(len(ls))), Lengths: HistOf(ls)}
	}
	got, err := MergeMatch([]Match{part(whole[:4], 1), part(whole[4:], 3)})
	require.NoError(t, err)
	assert.Equal(t, 11, got.Games)
	assert.Equal(t, 4, got.P1Wins)
	assert.Equal(t, arena.Quantile(append([]int32(nil), whole...), 0.9), got.P90)
	assert.InDelta(t, arena.Mean(whole), got.Mean, 1e-9)

	bad := part(whole[:4], 1)
	bad.P2 = "c"
	_, err = MergeMatch([]Match{part(whole[4:], 3), bad})
	require.ErrorIs(t, err, ErrMismatch)
	bad = part(whole[:4], 1)
	bad.Games = 5
	_, err = MergeMatch([]Match{bad})
	require.ErrorIs(t, err, ErrFormat)
}

// auditOf is a hand-made audit of games first..first+1 with every field
// set, so that a lost field shows in the round trip.
func auditOf(first int) *arena.AuditSummary {
	r := submarine.DefaultRules()
	fleet := func(c grid.Cell) submarine.Fleet {
		f := submarine.NewFleet(r, submarine.Placement{c, c + 2, c + 4})
		f.HP[0] = 2
		return f
	}
	pt := audit.Point{Ply: 40 + first, Turn: 1, Fleets: [2]submarine.Fleet{fleet(0), fleet(10)},
		Value: endgame.Value{Outcome: endgame.Draw}}
	a := &arena.AuditSummary{Rules: r, Games: 2, Known: 1}
	a.Thrown = []arena.AuditedGame{{Index: first + 1, Seed: 1<<63 + uint64(first), Player: "p2", Throw: audit.Throw{
		Seat: 1, Ply: 57, Action: submarine.Action{Kind: submarine.Move, Ship: 1, To: 7},
		Before: endgame.Value{Outcome: endgame.Draw}, After: endgame.Value{Outcome: endgame.Loss, Plies: 4, Exact: true}}}}
	a.Players[0].Classes[audit.ForcedDraw] = 1
	a.Players[0].Classes[audit.WonFromWon] = 1
	a.Players[1].Classes[audit.ForcedDraw] = 1
	a.Players[1].Classes[audit.MissedWin] = 1
	a.Players[0].WinSunkBefore[1] = 1
	a.Players[0].Forced = []arena.AuditedPoint{{Index: first, Seed: 99, Seat: 1, Point: pt}}
	a.Players[1].Missed = []arena.AuditedPoint{{Index: first + 1, Seed: 98, Seat: 0, Lost: true, Point: pt}}
	return a
}

// TestMergeMatchAudit: audited shards written and read back merge into the
// audit of the whole match, sorted and named as a match's; a mix of
// audited and unaudited shards is refused; an audited file is of version 2.
func TestMergeMatchAudit(t *testing.T) {
	part := func(first int) Match {
		s := arena.Summary{Game: "submarine", P1: "a", P2: "b", Games: 2, Draws: 2, Actions: 20,
			Lengths: []int32{10, 10}, Audit: auditOf(first)}
		return MatchOf(&s)
	}
	var parts []Match
	for k, first := range []int{2, 0} {
		data := write(t, header(k+1, 2, 4), part(first))
		f, err := Read(bytes.NewReader(data), "s")
		require.NoError(t, err)
		assert.Equal(t, 2, f.Header.Version)
		var m Match
		require.NoError(t, json.Unmarshal(f.Result, &m))
		parts = append(parts, m)
	}
	got, err := MergeMatch(parts)
	require.NoError(t, err)
	want := auditOf(2)
	want.Merge(auditOf(0))
	want.Finish("a", "b")
	require.NotNil(t, got.Audit)
	assert.Equal(t, submarine.DefaultRules().Fleet, got.Audit.Rules.Fleet)
	got.Audit.Rules = want.Rules
	assert.Equal(t, want, got.Audit)
	assert.Equal(t, []int{1, 3}, []int{got.Audit.Thrown[0].Index, got.Audit.Thrown[1].Index}, "sorted by game")
	assert.Equal(t, "b", got.Audit.Thrown[0].Name)

	plain := part(0)
	plain.Audit = nil
	_, err = MergeMatch([]Match{part(2), plain})
	require.ErrorIs(t, err, ErrMismatch)
	assert.Contains(t, err.Error(), "audited")
	for _, spoil := range []func(a *arena.AuditSummary){
		func(a *arena.AuditSummary) { a.Players[1].Classes[audit.ForcedDraw] = 5 },
		func(a *arena.AuditSummary) { a.Players[0].Forced[0].Seat = 5 }, // would index the fleets out of range
		func(a *arena.AuditSummary) { a.Players[1].Missed[0].Point.Turn = -1 },
		func(a *arena.AuditSummary) { a.Thrown[0].Player = "p3" },
		func(a *arena.AuditSummary) { a.Known = 3 },
	} {
		bad := part(0)
		spoil(&bad.Audit.Summary)
		_, err = MergeMatch([]Match{bad})
		require.ErrorIs(t, err, ErrFormat)
	}
	other := part(0)
	other.Audit.Rules.DrawLimit = 7
	_, err = MergeMatch([]Match{part(2), other})
	require.ErrorIs(t, err, ErrMismatch)
}

func TestMergeTournamentRefusesIncompletePairs(t *testing.T) {
	p := Tournament{Players: []string{"a", "b", "c"}, Games: 2, Bootstrap: 10, Pairs: []tournament.ShardPair{
		{Index: 0, Pair: tournament.Pair{A: "a", B: "b", Wins: 2}},
		{Index: 1, Pair: tournament.Pair{A: "a", B: "c", Wins: 1, Losses: 1}},
	}}
	_, err := MergeTournament([]Tournament{p}, 1)
	require.ErrorIs(t, err, ErrMismatch)
	assert.Contains(t, err.Error(), "pair 2")
	p.Pairs = append(p.Pairs, tournament.ShardPair{Index: 2, Pair: tournament.Pair{A: "b", B: "c", Draws: 2}})
	res, err := MergeTournament([]Tournament{p}, 1)
	require.NoError(t, err)
	assert.True(t, res.Complete)
	assert.Equal(t, "a", res.Ratings[0].Name)
}

// FuzzRead: no input makes Read panic, and what it accepts it writes back
// to a file it reads the same.
func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	_ = Write(&b, header(1, 2, 10), Match{Games: 5})
	f.Add(b.String())
	f.Add("")
	f.Add("{}\n{}\n")
	f.Fuzz(func(t *testing.T, data string) {
		sf, err := Read(strings.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		require.NoError(t, Write(&out, sf.Header, sf.Result))
		again, err := Read(&out, "again")
		require.NoError(t, err)
		assert.Equal(t, sf.Header, again.Header)
	})
}

func ExampleSpec_Range() {
	for k := 1; k <= 3; k++ {
		lo, hi := Spec{K: k, N: 3}.Range(10)
		fmt.Printf("shard %d/3: games %d..%d\n", k, lo, hi-1)
	}
	// Output:
	// shard 1/3: games 0..2
	// shard 2/3: games 3..5
	// shard 3/3: games 6..9
}

// FuzzMergeMatch: no result line makes merging a match (and reading its
// audit as kaisen merge prints it) panic.
func FuzzMergeMatch(f *testing.F) {
	s := arena.Summary{Game: "submarine", P1: "a", P2: "b", Games: 2, Draws: 2, Actions: 20,
		Lengths: []int32{10, 10}, Audit: auditOf(0)}
	seed, err := json.Marshal(MatchOf(&s))
	require.NoError(f, err)
	f.Add(string(seed))
	f.Add(`{"games":1,"draws":1,"lengths":[[5,1]],"audit":{"rules":{"width":99},"summary":{}}}`)
	f.Fuzz(func(t *testing.T, data string) {
		var m Match
		if json.Unmarshal([]byte(data), &m) != nil {
			return
		}
		sum, err := MergeMatch([]Match{m})
		if err != nil || sum.Audit == nil {
			return
		}
		a := sum.Audit
		for _, g := range append(slices.Clone(a.Thrown), a.Unproved...) {
			_ = g.Throw.Describe(a.Rules)
		}
		for pl := range a.Players {
			for _, pt := range append(slices.Clone(a.Players[pl].Forced), a.Players[pl].Missed...) {
				_, _ = pt.Material(), pt.Value()
			}
		}
	})
}
