package human

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/game"
)

// Text is one game's words at a terminal seat: how the person types a
// placement and an action, and how the seat tells the person what the
// rules told it. A Text is made for one seat of one game; it writes to
// the seat's output and keeps what the person was told (the boards), and
// nothing else: everything it prints is a function of its input lines and
// of the observations Tell is given. Person runs the typed lines through
// it; one implementation per game (submarine.go, battleship.go,
// abilities.go).
type Text[P, A, O any] interface {
	Typed[P, A]
	// Intro says, before the placement, the board, the fleet and how to
	// type a placement.
	Intro()
	// Place reads one typed placement line. false: the line was refused
	// (Place has said why) and another is read. At the end of the input
	// eof is true (line empty) and Place returns the seat's placement
	// then, an invalid one to forfeit.
	Place(line string, eof bool) (P, bool)
	// Turn starts one of the seat's turns (it draws the boards, says a
	// pending question) and returns the prompt.
	Turn() string
	// Act reads one typed line. false: the line was a command (help, the
	// boards) or was refused, and Act has answered it; the next line is
	// read. An action it returns is legal as far as the seat was told.
	Act(line string) (A, bool)
	// Resign is the action of a seat whose input ended (an invalid one
	// forfeits), and what the seat says the first time.
	Resign() (A, string)
	// Tell reports o in words. For an action of the opponent's it returns
	// the start of the line that gives the AI's reason for it under
	// Options.Reveal (e.g. "  why: "), else "".
	Tell(o O) string
}

// Typed is the typed form of a game's placements and actions at a seat:
// the lines a person types, written from a placement or an action. A
// script plays a seat by typing them (Typist), and the round trip holds
// for every legal action a: Parse(Line(a)) is a (the conformance suite's
// text check). Line and PlaceLine depend on the rules alone.
type Typed[P, A any] interface {
	// Line is a as the person types it ("a 2 3", "E5", "salvo E5 F5").
	Line(a A) string
	// PlaceLine is p as the person types it at the placement prompt.
	PlaceLine(p P) string
	// Parse reads one typed action line as Act does, without checking
	// the action against what the seat was told and without changing the
	// Text; a command (help, the boards) or a typo is an error.
	Parse(line string) (A, error)
}

// Person is a person at a terminal (or a script behind a pipe) in one
// seat of one game, as the game contract's player: Place and Act read
// typed lines through the game's Text, Observe reports what the seat is
// told. A typo or an illegal action is refused with the reason and asked
// again, never played, so it cannot forfeit the game; the end of the
// input resigns (Text.Resign).
type Person[P, A, O any] struct {
	terminal
	text Text[P, A, O]
	// AfterOpponent, when set, is called after each opponent action is
	// reported and a non-empty answer printed as the AI's reason (the
	// Text's "why: " line). Only kaisen play --reveal-ai sets it
	// (Options.Reveal): the AI's explanation is not a function of what the
	// rules tell the person.
	AfterOpponent func() string
}

var _ game.Player[int, int, int] = (*Person[int, int, int])(nil)

// NewPerson returns the seat of text reading lines from in and writing to
// out (text's output). The seats of successive games share one in.
//
// When out is a Deadline, each prompt says the time left of the host's
// TurnTime, counted from the start of the placement or of the turn.
func NewPerson[P, A, O any](text Text[P, A, O], in *bufio.Reader, out io.Writer) *Person[P, A, O] {
	h := &Person[P, A, O]{terminal: terminal{in: in, out: out, now: time.Now}, text: text}
	if d, ok := out.(Deadline); ok {
		h.limit = d.TurnTime()
	}
	return h
}

// Deadline is a seat's output that knows the time the host gives for each
// action and for the placement (kaisen play --human --turn-time: the wire
// does not say it). The seat then shows the time left at every prompt.
type Deadline interface {
	io.Writer
	TurnTime() time.Duration
}

// timeLeft is prompt p ("your move> ") with the time left of a turn that
// started at start: "your move (4m59s left)> ". Without a limit it is p.
func (t *terminal) timeLeft(p string, start time.Time) string {
	if t.limit <= 0 {
		return p
	}
	left := t.limit - t.now().Sub(start)
	note := "(time is up: the server may have ended the game)"
	if left > 0 {
		note = "(" + left.Round(time.Second).String() + " left)"
	}
	if head, ok := strings.CutSuffix(p, "> "); ok {
		return head + " " + note + "> "
	}
	return note + " " + p
}

// forfeiter is a Text whose end of the input does not forfeit (it passes:
// Battleship, abilities): Forfeit is the action that gives the game up at
// once when the person resigns, an illegal one.
type forfeiter[A any] interface {
	Forfeit() A
}

// ResignHelp is the line every seat's help ends with: the command that
// gives up, at any prompt.
const ResignHelp = `  resign         give up: you lose this game, and a series stops ("quit" too)`

// isHelp reports whether line asks for the help.
func isHelp(line string) bool {
	switch strings.ToLower(line) {
	case "help", "h", "?":
		return true
	}
	return false
}

// isResign reports whether line gives up the game.
func isResign(line string) bool {
	switch strings.ToLower(line) {
	case "resign", "quit", "q", "exit", "forfeit":
		return true
	}
	return false
}

// Place implements game.Player: it asks for a placement until the Text
// takes one. "help" says the Text's introduction again; "resign" (or
// "quit") gives up as the end of the input does.
func (h *Person[P, A, O]) Place() P {
	start := h.now()
	h.text.Intro()
	for {
		line, ok := h.read(h.timeLeft("placement> ", start))
		switch {
		case ok && isHelp(line):
			h.text.Intro()
			fmt.Fprintln(h.out, ResignHelp)
			continue
		case ok && isResign(line):
			h.resign()
			ok = false
		}
		if p, done := h.text.Place(line, !ok); done || !ok {
			return p
		}
	}
}

// resign gives up: the seat's input ends here for this seat and for every
// later one reading the same input (the rest of a series), and the seat
// says so.
func (h *Person[P, A, O]) resign() {
	h.eof, h.resigned = true, true
	h.in.Reset(strings.NewReader(""))
	fmt.Fprintln(h.out, "resigning: you lose this game (and a series stops here)")
}

// Resigned reports whether the person typed "resign" (or "quit"): the
// seat's input has ended then (EOF), for the later games of a series too.
func (h *Person[P, A, O]) Resigned() bool { return h.resigned }

// Act implements game.Player: it starts the turn and asks for a line
// until the Text reads an action from it. Once the input has ended it
// plays the Text's Resign action.
func (h *Person[P, A, O]) Act() A {
	if h.eof {
		a, _ := h.text.Resign()
		return a
	}
	start := h.now()
	prompt := h.text.Turn()
	for {
		line, ok := h.read(h.timeLeft(prompt, start))
		if ok && isResign(line) {
			h.resign()
			if f, ok := h.text.(forfeiter[A]); ok {
				return f.Forfeit()
			}
			a, _ := h.text.Resign()
			return a
		}
		if !ok {
			a, say := h.text.Resign()
			fmt.Fprintln(h.out, say)
			return a
		}
		a, ok := h.text.Act(line)
		if isHelp(line) {
			fmt.Fprintln(h.out, ResignHelp)
		}
		if ok {
			return a
		}
	}
}

// Observe implements game.Player: the Text reports o; after an opponent's
// action the AI's reason follows when AfterOpponent gives one.
func (h *Person[P, A, O]) Observe(o O) {
	if why := h.text.Tell(o); why != "" && h.AfterOpponent != nil {
		if r := h.AfterOpponent(); r != "" {
			fmt.Fprintf(h.out, "%s%s\n", why, r)
		}
	}
}

// maxLine bounds a typed line.
const maxLine = 4096

// terminal is the person's side of a seat: typed lines in, words out.
type terminal struct {
	in       *bufio.Reader
	out      io.Writer
	eof      bool
	resigned bool             // the person typed "resign"
	limit    time.Duration    // the host's time per action (Deadline), 0 = not known
	now      func() time.Time // the clock of the time left
}

// EOF reports whether the input ended (the seat then plays its Text's
// Resign action: a submarine seat resigns, a Battleship seat passes).
func (t *terminal) EOF() bool { return t.eof }

// read writes p and reads one trimmed line; ok is false at the end of the
// input.
func (t *terminal) read(p string) (string, bool) {
	fmt.Fprint(t.out, p)
	line, err := t.in.ReadString('\n')
	if err != nil && line == "" {
		t.eof = true
		return "", false
	}
	if len(line) > maxLine {
		line = line[:maxLine]
	}
	return strings.TrimSpace(line), true
}
