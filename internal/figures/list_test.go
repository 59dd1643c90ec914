package figures

import (
	"fmt"
	"slices"
)

// The pages that quote figures.
const (
	readme     = "README.md"
	results    = "docs/results.md"
	battleship = "docs/battleship.md"
	admiral    = "docs/admiral.md"
	reference  = "docs/reference-players.md"
	hirota     = "docs/hirota.md"
	abilities  = "docs/abilities.md"
	cliPage    = "docs/cli.md"
)

// figures lists every seeded figure the docs quote that a CI machine can
// recompute in a few minutes. Left out, each marked with its source on its
// page: 20,000-game robustness runs, admiral against simple, random and
// itself, hirota against random and admiral, density over hundreds of games
// (about 1 CPU-s a game).
func figures() []figure {
	var fs []figure

	// docs/results.md: every pair among the reference AIs, 2000 games, seed 2026.
	ais := []string{"stateplayer2", "state", "simple", "random"}
	for i, p1 := range ais {
		for _, p2 := range ais[i:] {
			f := figure{
				name:   "match-" + p1 + "-" + p2,
				args:   []string{"match", "--p1", p1, "--p2", p2, "-n", "2000", "--seed", "2026", "--json"},
				quotes: []quote{{results, matchRow}},
			}
			if p1 != "stateplayer2" && p1 != p2 {
				f.quotes = append(f.quotes, quote{reference, matchRow})
			}
			fs = append(fs, f)
		}
	}

	// admiral's headline figures, seed 2027 (docs/admiral.md, "After issue 11").
	for _, p2 := range []string{"stateplayer2", "state"} {
		fs = append(fs, figure{
			name: "match-admiral-" + p2,
			args: []string{"match", "--p1", "admiral", "--p2", p2, "-n", "1000", "--seed", "2027", "--json"},
			quotes: []quote{{results, matchRow}, {admiral, admiralRow}, {readme, func(o *output) string {
				return fmt.Sprintf("%s%% of %d games against %s", pct2(o.int("p1_wins"), o.int("games")), o.int("games"), o.str("p2"))
			}}},
		})
	}
	// hirota's headline figure (docs/hirota.md), seed 7.
	fs = append(fs, figure{
		name: "match-hirota-stateplayer2",
		args: []string{"match", "--p1", "hirota", "--p2", "stateplayer2", "-n", "400", "--seed", "7", "--json"},
		quotes: []quote{{hirota, func(o *output) string {
			return fmt.Sprintf("| %d, seed %d | **%d / %d / %d** (", o.int("games"), o.int("seed"), o.int("p1_wins"), o.int("draws"), o.int("p2_wins"))
		}}},
	})
	fs = append(fs, figure{
		name:   "tournament",
		args:   []string{"tournament", "--players", "admiral,stateplayer2,state,simple,random", "-n", "400", "--seed", "1"},
		quotes: []quote{{results, stdoutLines(2, 14)}},
	})

	// Battleship: shots alone, seed 1 (game i has the same fleet for every bot).
	blocks := map[string]string{"blocks.yaml": "pattern: blocks\n"}
	lookahead := map[string]string{"lookahead.yaml": "lookahead: 4\n"}
	for _, s := range []struct {
		name, player, label string
		n                   string
		files               map[string]string
		pages               []string
		extra               []string // more flags
	}{
		{"bs-random", "bs-random", "bs-random", "10000", nil, []string{results, battleship}, nil},
		{"gridbot", "gridbot", "gridbot (`diagonal`, default)", "10000", nil, []string{results, battleship}, nil},
		{"gridbot-blocks", "gridbot", "gridbot (`blocks`)", "10000", blocks, []string{results, battleship}, nil},
		{"bs-random-1000", "bs-random", "— the same first 1 000 games: bs-random", "1000", nil, []string{battleship}, nil},
		{"gridbot-1000", "gridbot", "— gridbot `diagonal`", "1000", nil, []string{battleship}, nil},
		{"gridbot-blocks-1000", "gridbot", "— gridbot `blocks`", "1000", blocks, []string{battleship}, nil},
		{"greedy-20", "greedy", "— greedy, its first 20 games", "20", nil, []string{battleship}, nil},
		{"density-lookahead-20", "density", "— density with `lookahead: 4`, the same 20 games", "20", lookahead, []string{battleship}, nil},
		// The placers of --placer against gridbot.
		{"gridbot-human", "gridbot", "gridbot, human placer", "10000", nil, []string{battleship}, []string{"--placer", "human"}},
		{"gridbot-inner", "gridbot", "gridbot, inner placer", "10000", nil, []string{battleship}, []string{"--placer", "inner"}},
		{"gridbot-edge", "gridbot", "gridbot, edge placer", "10000", nil, []string{battleship}, []string{"--placer", "edge"}},
		// Placement learnt over a series: the human-like placer's fleets,
		// adaptive in one series of 50, density on each fleet alone (--vs).
		{"adaptive-human-50", "adaptive", "adaptive, human placer, one series of 50", "50", nil, []string{results, battleship}, []string{"--placer", "human", "--series", "50", "--vs", "density"}},
	} {
		args := []string{"shots", "--player", s.player}
		for name := range s.files {
			args = append(args, "--weights", name)
		}
		args = append(args, s.extra...)
		f := figure{name: "shots-" + s.name, args: append(args, "-n", s.n, "--seed", "1", "--json"), files: s.files}
		for _, p := range s.pages {
			f.quotes = append(f.quotes, quote{p, shotsRow(s.label)})
		}
		if slices.Contains(s.extra, "--vs") {
			f.quotes = append(f.quotes, quote{battleship, vsLine})
		}
		switch s.player {
		case "density", "greedy", "adaptive":
			f.quotes = append(f.quotes, quote{battleship, stderrLine(s.player + " moves: ")})
		}
		fs = append(fs, f)
	}

	// Battleship: head to head, seed 1.
	fs = append(fs, figure{
		name:   "bs-match-gridbot-bs-random",
		args:   []string{"match", "--game", "battleship", "--p1", "gridbot", "--p2", "bs-random", "-n", "2000", "--seed", "1", "--json"},
		quotes: []quote{{results, bsMatchRow}, {battleship, bsMatchRow}},
	})

	// The abilities variant: the final ab-density over ab-plain, seed 1
	// (docs/abilities.md).
	fs = append(fs, figure{
		name: "ab-match-ab-density-ab-plain",
		args: []string{"match", "--game", "abilities", "--p1", "ab-density", "--p2", "ab-plain", "-n", "400", "--seed", "1", "--json"},
		quotes: []quote{{abilities, func(o *output) string {
			return fmt.Sprintf("**%d of %d (", o.int("p1_wins"), o.int("games"))
		}}},
	})

	// Battleship: the exact count of the empty classic board and the seed's map.
	fs = append(fs, figure{
		name:   "count-empty",
		args:   []string{"count"},
		quotes: []quote{{battleship, stdoutLines(1, 5)}, {results, stdoutLines(1, 1)}},
	})

	// Battleship solved exactly on small boards: the optimum against
	// greedy and other policies (docs/battleship.md, "How far greedy is
	// from optimal").
	fs = append(fs, optimalFigures()...)

	// hirota's placements learnt from a corpus of its replays (docs/admiral.md).
	fs = append(fs, corpusFigure())

	// A bot against the pool (docs/cli.md, kaisen gauntlet).
	fs = append(fs, gauntletFigure())

	// Battleship on the turn server: a learning house AI over a series.
	fs = append(fs, serverSeriesFigure())

	// The CI smoke run (.ci/run compares the built binary's output with this
	// golden file).
	fs = append(fs, figure{name: "smoke", args: []string{"match", "-n", "200", "--seed", "1", "--json"}})
	return fs
}
