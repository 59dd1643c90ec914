package game

import "github.com/kaisen-ai/kaisen/game/grid"

// Aim is where an action points on the two boards, for a host that lets a
// person choose an action by clicking a cell (browser play, internal/web)
// rather than by typing it. A host that gets no Aim for an action offers
// it by its words alone (a button).
type Aim struct {
	// At is the cell the action attacks on the enemy's board (the first
	// cell of a volley); grid.None: none.
	At grid.Cell
	// From and To are a move of one of the actor's own ships, on the
	// actor's board: the cell it leaves and the cell it reaches; both
	// grid.None when the action is not a move.
	From, To grid.Cell
}

// NoAim is the Aim of an action that points at no cell (an answer, a
// pass): the host offers it by its words.
var NoAim = Aim{At: grid.None, From: grid.None, To: grid.None}

// Aimer is the optional piece of the contract that says where an action
// points: rules that implement it let browser play draw a legal action
// of the seat to act in g as a cell to click. It speaks of the actor's
// own fleet and of cells only, never of what the actor was not told.
type Aimer[G, A any] interface {
	Aim(g G, a A) Aim
}
