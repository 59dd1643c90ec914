package arena_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/arena/arenatest"
	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/series"
)

var (
	_ arena.Learner = (*bsplayers.Adaptive)(nil)
	_ arena.Learner = (*subLearner)(nil)
	_ arena.Learner = (*bsLearner)(nil)
)

// journal records, for every learner one factory made, the ends of games
// it was told, by instance in the order they were made.
type journal struct {
	mu   sync.Mutex
	made [][]series.End
}

func (j *journal) instance() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.made = append(j.made, nil)
	return len(j.made) - 1
}

func (j *journal) record(id int, e series.End) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.made[id] = append(j.made[id], e)
}

// subLearner is a submarine random player that keeps a journal of its
// series: NewGame makes it a fresh random player.
type subLearner struct {
	players.Player
	rules *submarine.Rules
	j     *journal
	id    int
}

func (l *subLearner) NewGame(rng *rand.Rand) { l.Player = players.NewRandom(l.rules, rng) }
func (l *subLearner) EndGame(e series.End)   { l.j.record(l.id, e) }

func (j *journal) ends(id int) []series.End { return j.made[id] }
func (j *journal) instances() int           { return len(j.made) }
func (j *journal) reset()                   { j.made = nil }

func subLearners(r *submarine.Rules, j *journal) players.Factory {
	return func(rng *rand.Rand) players.Player {
		return &subLearner{Player: players.NewRandom(r, rng), rules: r, j: j, id: j.instance()}
	}
}

// bsLearner is subLearner for Battleship.
type bsLearner struct {
	bsplayers.Player
	rules *battleship.Rules
	u     *bsbelief.UniformPlacer
	j     *journal
	id    int
}

func (l *bsLearner) NewGame(rng *rand.Rand) { l.Player = bsplayers.NewRandom(l.rules, l.u, rng) }
func (l *bsLearner) EndGame(e series.End)   { l.j.record(l.id, e) }

func bsLearners(t *testing.T, r *battleship.Rules, j *journal) bsplayers.Factory {
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	return func(rng *rand.Rand) bsplayers.Player {
		return &bsLearner{Player: bsplayers.NewRandom(r, u, rng), rules: r, u: u, j: j, id: j.instance()}
	}
}

// TestSeriesKeepsLearnersPerSeries: with Series, each role's Learner is
// made once per series and told the end of exactly its series' games, in
// order, with its seat and the winner; nothing reaches another series or
// the other role; the results are those of the plain match (the learners
// play as fresh players) and the same whatever the workers.
func TestSeriesKeepsLearnersPerSeries(t *testing.T) {
	const size = 4
	n := 18 // four series of 4 and one of 2
	var j1, j2 journal
	subRules := submarine.DefaultRules()
	bsRules, err := battleship.NewRules(grid.MustBoard(7, 7, nil), []int{3, 2, 2, 1, 1})
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		fam  arena.Family
	}{
		{"submarine", &arena.Submarine{Rules: subRules,
			P1: arena.SubmarineEntrant{Name: "l1", Factory: subLearners(subRules, &j1)},
			P2: arena.SubmarineEntrant{Name: "l2", Factory: subLearners(subRules, &j2)}}},
		{"battleship", arenatest.Battleship(bsRules, "l1", bsLearners(t, bsRules, &j1), "l2", bsLearners(t, bsRules, &j2))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j1.reset()
			plain := arena.Match{Family: tc.fam, Games: n, Seed: 11, Workers: 2}
			want, err := plain.Run(context.Background(), nil)
			require.NoError(t, err)
			want.Elapsed, want.Workers = 0, 0
			require.Equal(t, n, j1.instances(), "without series: a player per game")
			for _, workers := range []int{1, 3} {
				j1.reset()
				j2.reset()
				m := arena.Match{Family: tc.fam, Games: n, Seed: 11, Workers: workers, Series: size}
				got, err := m.Run(context.Background(), nil)
				require.NoError(t, err)
				require.Equal(t, size, got.Series)
				got.Elapsed, got.Workers, got.Series = 0, 0, 0
				require.Equal(t, want, got, "learners that play as fresh players: the plain match's games")

				wins := [2]int{}
				for role, j := range []*journal{&j1, &j2} {
					require.Equal(t, 5, j.instances(), "one learner per series and role")
					lengths := map[int]int{}
					for id := range j.instances() {
						ends := j.ends(id)
						lengths[len(ends)]++
						for g, e := range ends {
							require.Equal(t, g, e.Game, "the games of one series, in order")
							require.Equal(t, (g+role)%2, e.Seat, "p1 in seat 0 in even games")
							if e.Won() {
								wins[role]++
							}
						}
					}
					require.Equal(t, map[int]int{size: 4, 2: 1}, lengths, "each learner saw its own series and no other")
				}
				require.Equal(t, [2]int{want.P1Wins, want.P2Wins}, wins)
			}
		})
	}
}

// TestSeriesReplaysRecordTheSeries: each replay's header places the game
// in its series.
func TestSeriesReplaysRecordTheSeries(t *testing.T) {
	dir := t.TempDir()
	m := arena.Match{Family: randomFamily(), Games: 7, Seed: 3, Workers: 2, Series: 3, Replays: dir}
	_, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	for i := range 7 {
		b, err := os.ReadFile(filepath.Join(dir, arena.ReplayName(i)))
		require.NoError(t, err)
		rp, err := subrecord.Read(bytes.NewReader(b))
		require.NoError(t, err)
		require.Equal(t, &replay.MatchRef{Seed: 3, Index: i, Series: &replay.SeriesRef{Index: i / 3, Game: i % 3, Size: 3}}, rp.Header.Match)
	}
}

func TestSeriesValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    arena.Match
		want string
	}{
		{"negative", arena.Match{Family: randomFamily(), Games: 4, Series: -1}, "series of -1 games"},
		{"shard inside a series", arena.Match{Family: randomFamily(), Games: 4, First: 3, Series: 2}, "first game 3 is not the first of a series of 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.m.Validate()
			require.ErrorIs(t, err, arena.ErrMatch)
			require.ErrorContains(t, err, tc.want)
		})
	}
	ok := arena.Match{Family: randomFamily(), Games: 4, First: 4, Series: 2}
	require.NoError(t, ok.Validate())
}

// sitter is a Battleship opponent that places with a human-like placer
// (recording its layouts) and always fires at cell 0, so that the other
// side sinks its whole fleet every game.
type sitter struct {
	layout battleship.Placement
}

func (s *sitter) Place() battleship.Placement { return s.layout }
func (*sitter) Shoot() grid.Cell              { return 0 }
func (*sitter) Observe(battleship.Event)      {}

// TestSeriesAdaptiveLearnsAsInShots: adaptive in a match series shoots
// exactly as bsplayers.Series (what kaisen shots --series plays) on the same
// layouts and random streams, and learning changes its shots.
func TestSeriesAdaptiveLearnsAsInShots(t *testing.T) {
	n := 8
	if testing.Short() || race.Enabled {
		n = 4
	}
	r, err := battleship.NewRules(grid.MustBoard(7, 7, nil), []int{3, 2, 2, 1, 1})
	require.NoError(t, err)
	human, err := bsbelief.NewHumanPlacer(r)
	require.NoError(t, err)
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	adaptive, err := bsplayers.New("adaptive", r, nil)
	require.NoError(t, err)
	var (
		mu      sync.Mutex
		layouts []battleship.Placement
	)
	opponent := func(rng *rand.Rand) bsplayers.Player {
		l, err := human.Place(rng)
		require.NoError(t, err)
		mu.Lock()
		layouts = append(layouts, l)
		mu.Unlock()
		return &sitter{layout: l}
	}
	fam := arenatest.Battleship(r, "adaptive", adaptive, "sitter", opponent)
	const seed = 5
	table := fam.NewTable(nil)
	var got []int
	for i := range n {
		d := arena.Deal{Index: i, Seed: arena.GameSeed(seed, i), MatchSeed: seed, P1Seat: i % 2,
			Series: &replay.SeriesRef{Index: 0, Game: i, Size: n}}
		res, err := table.Play(d)
		require.NoError(t, err)
		require.True(t, res.P1Won(), "game %d", i)
		got = append(got, res.Shots[d.P1Seat])
	}
	// The same streams as the arena's: P1's seat stream, after its placement.
	rngs := func(i int) *rand.Rand {
		rng := arena.SeatRand(arena.GameSeed(seed, i), i%2)
		_, err := u.Place(rng)
		require.NoError(t, err)
		return rng
	}
	learner := adaptive(rand.New(rand.NewPCG(0, 0))).(bsplayers.Learner)
	want, err := bsplayers.Series(context.Background(), r, learner, layouts, rngs)
	require.NoError(t, err)
	require.Equal(t, want, got, "shots per game of the match series")

	var density []int
	for i, l := range layouts {
		fresh := adaptive(rngs(i))
		shots, err := bsplayers.Solo(context.Background(), r, fresh, l)
		require.NoError(t, err)
		density = append(density, shots)
	}
	require.Equal(t, density[0], got[0], "nothing learnt in the first game")
	require.NotEqual(t, density, got, "what it learnt changed its shots")
}
