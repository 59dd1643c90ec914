package game

import "github.com/kaisen-ai/kaisen/game/grid"

// The record's public view: what a spectator may see of a game while it is
// played. Each game writes it once, next to its rules (a View over its
// Step), and every host that shows a game live (the server's spectator
// feed, the web page) draws it without knowing the game. Only what both
// seats are told is public: a move's destination, an enemy's hidden move,
// a defender's false answer and the placements are not.

// Public is what a spectator knows of a game before its first action: the
// board and each fleet's public counters.
type Public struct {
	Game  string      // the game's name
	Board *grid.Board // the board (with its rocks), the same for both seats
	// Cols and Rows name the board's columns and rows, as the game writes
	// its cells.
	Cols, Rows []string
	Ships      []string // the fleet: the ships' names (or lengths)
	// HP is each seat's public counters at the start (the submarine's hp
	// of each ship; Battleship's cells afloat), HPNames their names.
	HP      []int
	HPNames []string
	// PerShip: View.Fleets gives one cell per ship, in fleet order (each
	// ship is one cell); otherwise every ship cell, in no order.
	PerShip bool
	// Sides is what each seat plays, in games with sides ("" otherwise).
	Sides [2]string
	// Rules are the game's rules, for a host's analysis that knows the
	// game (the web page's submarine probability map); nil for others.
	Rules any
}

// Seen is one action as a spectator may see it.
type Seen struct {
	// Seat is who acted; for an answer that settles shots (abilities),
	// the seat whose shots they are.
	Seat int
	// Text is the action in words, without its number or actor ("attacks
	// [1,2]: miss").
	Text string
	// At is the attacked cell on the other seat's board (grid.None: none,
	// a move; several cells are in Shots).
	At  grid.Cell
	Hit bool
	// Shots are the cells of a volley, on the other seat's board.
	Shots []Shot
	// Near is an area the answer speaks of (the submarine's splash), on
	// the other seat's board.
	Near []grid.Cell
	// Sunk is the cells of the ship sunk, on the other seat's board.
	Sunk []grid.Cell
	// HP is each seat's public counters after the action (Public.HP).
	HP [2][]int
	// Event is the game's own public event, for a host's analysis that
	// knows the game (the submarine's Event told to the other side).
	Event any
}

// Shot is one cell of a volley as a spectator sees it.
type Shot struct {
	At  grid.Cell
	Hit bool // a hit or a kill
	// Blocked: no shot happened on the cell (the abilities air defence).
	Blocked bool
}

// View is the public view of one game in play, action by action: a
// game's View keeps what it needs of the public record (the counters) and
// nothing a seat was not told. It is used by one goroutine.
type View[S any] interface {
	// Public is the game before its first action.
	Public() Public
	// See fills *e with the public view of step st, the step Apply just
	// returned (err is Apply's error: the action was illegal), and reports
	// whether anything of it is public (false: nothing is, e.g. an enemy's
	// hidden move or a shot whose answer the defender is weighing; a host
	// shows nothing). The slices of *e are new at each call: the host may
	// keep them.
	See(st *S, err error, e *Seen) bool
	// Fleets are both hidden fleets now, for a view that reveals them by
	// design (kaisen serve --web-reveal); Public.PerShip says how.
	Fleets() [2][]grid.Cell
}
