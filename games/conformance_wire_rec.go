package games

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
)

// The recorders of the wire check (conformance_wire.go): what each player
// did and was told (courses), what each client codec wrote (recCodec), and
// dump, the exact text the check compares values by.

// courses are the courses of the players a factory made, one per game (a
// player per call), and the seat each was made for.
type courses[P, A, O any] struct {
	games [][]string
	seats []int
}

// factory wraps f: each player it makes records its course. seat, unless
// -1, is the seat f is given instead of the caller's (the in-process game
// makes its players as the client made them).
func (c *courses[P, A, O]) factory(f game.Factory[P, A, O], seat int) game.Factory[P, A, O] {
	return func(rng *rand.Rand, s int) game.Player[P, A, O] {
		if seat >= 0 {
			s = seat
		}
		c.games = append(c.games, nil)
		c.seats = append(c.seats, s)
		return &recPlayer[P, A, O]{p: f(rng, s), c: c, game: len(c.games) - 1}
	}
}

// recPlayer is a player that records its course: its placement, its
// actions and what it is told, in order, each dumped as it happens. It
// hides what the player it wraps implements beyond game.Player (a
// Learner is made fresh for every game on both sides).
type recPlayer[P, A, O any] struct {
	p    game.Player[P, A, O]
	c    *courses[P, A, O]
	game int // its course: c.games[game]
}

func (r *recPlayer[P, A, O]) add(what string, v any) {
	r.c.games[r.game] = append(r.c.games[r.game], what+" "+dump(v))
}

func (r *recPlayer[P, A, O]) Place() P {
	p := r.p.Place()
	r.add("place", p)
	return p
}

func (r *recPlayer[P, A, O]) Act() A {
	a := r.p.Act()
	r.add("act", a)
	return a
}

func (r *recPlayer[P, A, O]) Observe(o O) {
	r.add("told", o)
	r.p.Observe(o)
}

// sameCourse says where the course a seat had on the wire leaves the one
// it had in-process (nil: nowhere).
func sameCourse(wire, local []string) error {
	for i := range max(len(wire), len(local)) {
		at := func(c []string) string {
			if i < len(c) {
				return c[i]
			}
			return "(nothing)"
		}
		if at(wire) != at(local) {
			return fmt.Errorf("step %d of %d:\n  wire        %s\n  in-process  %s", i+1, len(local), at(wire), at(local))
		}
	}
	return nil
}

// recCodec is a client codec that records, for each game, its opening and
// the lines the codec it wraps writes while it places and acts, with the
// placement and actions it was given.
type recCodec[R, P, A, O any] struct {
	game.ClientCodec[R, P, A, O]
	lines recLines
	games []*codecGame[R, P, A]
}

// codecGame is what a client codec wrote in one game.
type codecGame[R, P, A any] struct {
	opening game.Opening[R]
	placed  P
	place   [][]byte // the lines written by Place
	acts    []A
	act     [][]byte // the lines written by the Acts
}

func (c *recCodec[R, P, A, O]) Open(l game.Lines) (game.Opening[R], error) {
	c.lines.Lines, c.lines.into = l, nil
	op, err := c.ClientCodec.Open(&c.lines)
	c.games = append(c.games, &codecGame[R, P, A]{opening: op})
	return op, err
}

func (c *recCodec[R, P, A, O]) Place(p P) error {
	g := c.games[len(c.games)-1]
	g.placed, c.lines.into = p, &g.place
	defer func() { c.lines.into = nil }()
	return c.ClientCodec.Place(p)
}

func (c *recCodec[R, P, A, O]) Act(a A, o *O) (bool, error) {
	g := c.games[len(c.games)-1]
	g.acts, c.lines.into = append(g.acts, a), &g.act
	defer func() { c.lines.into = nil }()
	return c.ClientCodec.Act(a, o)
}

// decodeLines checks that the lines the client wrote in game g decode on
// the server codec s (from seat) to the placement and the actions it was
// given, line for line.
func decodeLines[R, P, A, O any](g *codecGame[R, P, A], s game.ServerCodec[P, A, O], seat int) []error {
	var problems []error
	if len(g.place) != 1 {
		return []error{fmt.Errorf("seat %d: %d placement lines, want 1", seat, len(g.place))}
	}
	p, err := s.DecodePlacement(seat, g.place[0])
	switch {
	case err != nil:
		problems = append(problems, fmt.Errorf("seat %d: placement %q: %w", seat, g.place[0], err))
	case !same(p, g.placed):
		problems = append(problems, fmt.Errorf("seat %d: placement %q reads %s, the player placed %s", seat, g.place[0], dump(p), dump(g.placed)))
	}
	if len(g.act) != len(g.acts) {
		return append(problems, fmt.Errorf("seat %d: %d action lines for %d actions", seat, len(g.act), len(g.acts)))
	}
	var bad []error // the action lines that do not read back
	for i, line := range g.act {
		a, err := s.DecodeAction(line)
		switch {
		case err != nil:
			bad = append(bad, fmt.Errorf("seat %d: action %d, %q: %w", seat, i+1, line, err))
		case !same(a, g.acts[i]):
			bad = append(bad, fmt.Errorf("seat %d: action %d, %q, reads %s, the player chose %s", seat, i+1, line, dump(a), dump(g.acts[i])))
		}
	}
	if len(bad) > 1 {
		bad = []error{fmt.Errorf("%w (and %d more of %d actions)", bad[0], len(bad)-1, len(g.act))}
	}
	return append(problems, bad...)
}

// recLines are a connection's lines that copy what is written, one line
// an element, into into while it is set.
type recLines struct {
	game.Lines
	into *[][]byte
}

func (l *recLines) Write(line []byte) error {
	if l.into != nil {
		for _, one := range bytes.Split(line, []byte("\n")) {
			*l.into = append(*l.into, bytes.Clone(one))
		}
	}
	return l.Lines.Write(line)
}

// same reports whether a and b are the same value: by a's Equal method
// when T has one of the form (T) Equal(T) bool (as github.com/google/go-cmp
// does: an action whose unused fields do not count, abilities.Action),
// else by their dumps.
func same[T any](a, b T) bool {
	if e, ok := any(a).(interface{ Equal(T) bool }); ok {
		return e.Equal(b)
	}
	return dump(a) == dump(b)
}

// dump is v as the wire check compares it: every field, unexported ones
// too, through pointers and interfaces (a pointer met again on its own
// path reads as "cycle"); slices and arrays by their elements, a nil slice
// as an empty one; maps by their entries in the order of their keys'
// dumps; a func or a channel by whether it is nil.
func dump(v any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(v), map[uintptr]bool{})
	return b.String()
}

func dumpValue(b *strings.Builder, v reflect.Value, path map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteString("nil")
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Complex64, reflect.Complex128:
		b.WriteString(strconv.FormatComplex(v.Complex(), 'g', -1, 128))
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Pointer:
		dumpPointer(b, v, path)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString(v.Elem().Type().String())
		dumpValue(b, v.Elem(), path)
	case reflect.Struct:
		b.WriteByte('{')
		for i := range v.NumField() {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(v.Type().Field(i).Name + ":")
			dumpValue(b, v.Field(i), path)
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(' ')
			}
			dumpValue(b, v.Index(i), path)
		}
		b.WriteByte(']')
	case reflect.Map:
		dumpMap(b, v, path)
	default: // func, chan, unsafe pointer
		fmt.Fprintf(b, "%s(nil:%v)", v.Type(), v.IsNil())
	}
}

func dumpPointer(b *strings.Builder, v reflect.Value, path map[uintptr]bool) {
	if v.IsNil() {
		b.WriteString("nil")
		return
	}
	p := v.Pointer()
	if path[p] {
		b.WriteString("cycle")
		return
	}
	path[p] = true
	defer delete(path, p)
	b.WriteByte('&')
	dumpValue(b, v.Elem(), path)
}

func dumpMap(b *strings.Builder, v reflect.Value, path map[uintptr]bool) {
	type entry struct{ k, v string }
	var es []entry
	for it := v.MapRange(); it.Next(); {
		var k, e strings.Builder
		dumpValue(&k, it.Key(), path)
		dumpValue(&e, it.Value(), path)
		es = append(es, entry{k.String(), e.String()})
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.k, b.k) })
	b.WriteString("map[")
	for i, e := range es {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(e.k + ":" + e.v)
	}
	b.WriteByte(']')
}
