package games

import (
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// pin is one pinned perft count.
func pin[R, P, A any](name string, r R, pl [2]P, first int, script []A, counts ...int) conformance.Perft[R, P, A] {
	return conformance.Perft[R, P, A]{Name: name, Rules: r, Placements: pl, First: first, Script: script, Counts: counts}
}

// The pinned perft counts of the three built-in games (Def.Perft, for
// their conformance checks): those their own tests pin
// (game/submarine/perft_test.go, game/abilities/perft_test.go), which the
// suite must find again. The rules are written out (NewRules would only
// validate them): a bad one fails its check.

// submarinePerft are the submarine game's pinned perft counts.
func submarinePerft() []conformance.Perft[*submarine.Rules, submarine.Placement, submarine.Action] {
	type sub = submarine.Placement
	xy := func(x, y int) grid.Cell { return grid.Cell(y*5 + x) }
	rules := func(b *grid.Board) *submarine.Rules {
		return &submarine.Rules{Board: b, Fleet: submarine.DefaultFleet(), DrawLimit: submarine.DefaultDrawLimit}
	}
	rounded := grid.MustBoard(6, 5, []grid.Cell{0, 5, 6 * 4, 6*5 - 1}) // grid.Rounded(6, 5)
	rocky := grid.MustBoard(5, 5, []grid.Cell{xy(2, 1), xy(1, 2), xy(3, 2), xy(2, 3)})
	std := submarine.DefaultRules()
	var none []submarine.Action // no script
	return []conformance.Perft[*submarine.Rules, submarine.Placement, submarine.Action]{
		pin("top row", std, [2]sub{{xy(0, 0), xy(2, 0), xy(4, 0)}, {xy(1, 1), xy(3, 1), xy(0, 2)}}, 0, none, 28, 1092, 33705),
		pin("spread", std, [2]sub{{xy(2, 2), xy(0, 0), xy(4, 4)}, {xy(2, 2), xy(0, 0), xy(4, 4)}}, 0, none, 39, 1510, 57452),
		pin("clustered, second seat first", std, [2]sub{{xy(0, 0), xy(1, 0), xy(0, 1)}, {xy(4, 4), xy(3, 4), xy(4, 3)}}, 1, none, 28, 784, 24360),
		pin("rounded 6x5", rules(rounded), [2]sub{{6*0 + 1, 6*1 + 0, 6*4 + 4}, {6*2 + 2, 6*2 + 3, 6*0 + 4}}, 0, none, 33, 1254, 43564),
		pin("rock diamond", rules(rocky), [2]sub{{xy(2, 2), xy(2, 0), xy(0, 2)}, {xy(4, 2), xy(2, 4), xy(4, 4)}}, 0, none, 23, 598, 14683),
		pin("after a sinking and a hit", std, [2]sub{{xy(2, 2), xy(0, 0), xy(4, 4)}, {xy(2, 2), xy(0, 0), xy(4, 4)}}, 0,
			[]submarine.Action{submarine.AttackAt(xy(4, 4)), submarine.MoveTo(1, xy(0, 3)), submarine.AttackAt(xy(2, 2))}, 29, 1131, 32019),
	}
}

// battleshipPerft are Battleship's pinned perft counts. A 4x4 sea with a
// 2-deck on 0 1 and a 1-deck on 10: every usable cell is a legal shot (a
// repeat too), so a position counts 16^d sequences until a game ends:
// after seat 0 sinks the 2-deck (shooting again), the shot at 10 ends the
// game (depth 2: 15 · 16; depth 3: 15 · 16 · 16, seat 1 sinking nothing in
// one shot).
func battleshipPerft() []conformance.Perft[*battleship.Rules, battleship.Placement, grid.Cell] {
	small := &battleship.Rules{Board: grid.MustBoard(4, 4, nil), Fleet: []int{2, 1}, DrawLimit: 4 * 16} // NewRules' draw limit
	layout := battleship.Placement{{0, 1}, {10}}
	var none []grid.Cell // no script
	return []conformance.Perft[*battleship.Rules, battleship.Placement, grid.Cell]{
		pin("4x4, start", small, [2]battleship.Placement{layout, layout}, 0, none, 16, 256, 4096),
		pin("4x4, one ship left", small, [2]battleship.Placement{layout, layout}, 0, []grid.Cell{0, 1}, 16, 240, 3840),
	}
}

// abilitiesPerft are the abilities game's pinned perft counts, on a 6x6
// sea.
func abilitiesPerft() []conformance.Perft[*abilities.Rules, battleship.Placement, abilities.Action] {
	base := &battleship.Rules{Board: grid.MustBoard(6, 6, nil), Fleet: []int{4, 3, 2, 1, 1}, DrawLimit: 4 * 36} // NewRules' draw limit
	sides := func(s0, s1 abilities.Side, opt abilities.Options) *abilities.Rules {
		return &abilities.Rules{Base: base, Sides: [2]abilities.Side{s0, s1}, Options: opt}
	}
	const ai, hu = abilities.AI, abilities.Humans
	type act = abilities.Action
	shoot := func(c grid.Cell) act { return act{Kind: abilities.Shoot, At: c} }
	special := func(c grid.Cell) act { return act{Kind: abilities.Shoot, At: c, Special: true} }
	move := func(from, to grid.Cell) act { return act{Kind: abilities.Move, At: from, To: to} }
	centre := func(c grid.Cell) act { return act{Kind: abilities.Salvo, At: c, To: c} }
	defend := func(use bool) act { return act{Kind: abilities.Defend, Use: use} }
	// the layout of game/abilities' tests: 4-deck 0 1 2 3, 3-deck 17 23
	// 29, 2-deck 30 31, 1-decks 13 and 21, on both sides
	layout := battleship.Placement{{0, 1, 2, 3}, {17, 23, 29}, {30, 31}, {13}, {21}}
	both := [2]battleship.Placement{layout, layout}
	var none []act // no script
	every := abilities.Options{SalvoShootsAgain: true, FalseMissAnyHit: true, MoveMayTouch: true, HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true}
	return []conformance.Perft[*abilities.Rules, battleship.Placement, abilities.Action]{
		pin("AI vs Humans, start", sides(ai, hu, abilities.Options{}), both, 0, none, 136, 10929),
		pin("Humans vs AI, start", sides(hu, ai, abilities.Options{}), both, 0, none, 112, 9716),
		pin("AI mirror, start", sides(ai, ai, abilities.Options{}), both, 0, none, 136, 15989),
		pin("Humans mirror, start", sides(hu, hu, abilities.Options{}), both, 0, none, 112, 7334),
		pin("Humans mirror, touching moves", sides(hu, hu, abilities.Options{MoveMayTouch: true}), both, 0, none, 116, 7945),
		pin("Humans salvo asked to reveal", sides(ai, hu, abilities.Options{}), both, 0, []act{shoot(35), centre(7)}, 84, 2822),
		pin("after a move and a 3-deck shot hit", sides(ai, hu, abilities.Options{}), both, 0, []act{move(13, 12), special(29)}, 96, 7257),
		pin("suppressed 1-decks", sides(ai, hu, abilities.Options{}), both, 0, []act{shoot(35), special(20)}, 132, 10345),
		pin("false miss asked", sides(hu, ai, abilities.Options{}), both, 0, []act{shoot(1)}, 2, 248),
		pin("air defence asked", sides(ai, hu, abilities.Options{}), both, 0, []act{shoot(7)}, 2, 224),
		pin("every option, after a lie and a move", sides(hu, ai, every), both, 0, []act{shoot(0), defend(true), move(13, 14)}, 132, 9902),
	}
}
