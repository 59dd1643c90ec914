// Package roster is the name → builder registry behind both player
// packages (players for the submarine game, players/battleship for
// Battleship): an ordered list of entries, looked up by name, each building
// a player factory for a set of rules from an optional settings file.
//
// Entries never read files: a Loader, supplied by the config layer
// (internal/config.File), overlays a file onto the defaults of a player's
// typed config struct, so the AI library does not depend on YAML parsing.
package roster

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/internal/spell"
)

// Loader overlays a settings file onto into, a pointer to a config struct
// holding the defaults; it fails on an unreadable file, an unknown key or a
// value of the wrong type. A nil Loader means "the built-in defaults".
type Loader = func(into any) error

// Configure returns defaults overlaid by load (nil = defaults unchanged) and
// validated when C has a Validate method.
func Configure[C any](load Loader, defaults C) (C, error) {
	cfg := defaults
	if load != nil {
		if err := load(&cfg); err != nil {
			var zero C
			return zero, err
		}
	}
	if v, ok := any(&cfg).(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			var zero C
			return zero, err
		}
	}
	return cfg, nil
}

// Entry describes one registered player of rules type R whose factories
// have type F.
type Entry[R, F any] struct {
	Name    string
	Summary string
	// Config is the YAML file under configs/ that documents the player's
	// settings ("" when it has none). The built-in defaults equal its contents.
	Config string
	// Build makes a factory for rules with the settings load overlays on the
	// player's defaults (nil = built-in defaults). It fails on an unreadable
	// config, an unknown key (named in the error) or a value out of range.
	Build func(rules R, load Loader) (F, error)

	reserved bool // a place kept by Reserve for Register to fill
}

// Reserve is the entry that keeps the place of the player called name, whose
// package (pkg, an import path) registers it (Register); until then
// building it fails, naming pkg.
func Reserve[R, F any](name, pkg string) Entry[R, F] {
	return Entry[R, F]{Name: name, reserved: true, Build: func(R, Loader) (F, error) {
		var zero F
		return zero, fmt.Errorf("not linked: import %s", pkg)
	}}
}

// Roster is an ordered list of entries: fixed when New makes it but for
// the places kept by Reserve, which Register fills during package
// initialisation (it is not safe to call concurrently with lookups).
type Roster[R, F any] struct {
	entries []Entry[R, F]
	unknown error  // wrapped by Lookup for a name not listed
	prefix  string // of New's errors, e.g. "players"
}

// New returns a roster of entries, in that order. Lookup wraps unknown for
// a name it does not list; New's build errors start with prefix.
func New[R, F any](unknown error, prefix string, entries ...Entry[R, F]) *Roster[R, F] {
	return &Roster[R, F]{entries: entries, unknown: unknown, prefix: prefix}
}

// Entries lists the entries in roster order (a copy).
func (r *Roster[R, F]) Entries() []Entry[R, F] { return slices.Clone(r.entries) }

// Names lists the entry names in roster order.
func (r *Roster[R, F]) Names() []string {
	names := make([]string, len(r.entries))
	for i, e := range r.entries {
		names[i] = e.Name
	}
	return names
}

// Lookup finds the entry called name; the error for an unknown name wraps
// the roster's unknown-name error and lists the known names.
func (r *Roster[R, F]) Lookup(name string) (Entry[R, F], error) {
	for _, e := range r.entries {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry[R, F]{}, &UnknownError{Kind: r.unknown, Name: name, Known: r.Names()}
}

// UnknownError is Lookup's error for a name the roster does not list
// (`players: unknown player "stateplayr2" (did you mean stateplayer2?;
// known: ...)`). It matches the roster's unknown-name error (errors.Is);
// UserError is its text without the package's prefix, for the CLI.
type UnknownError struct {
	Kind  error    // the roster's unknown-name error (players.ErrUnknownPlayer ...)
	Name  string   // the name looked up
	Known []string // the roster's names, in order
}

func (e *UnknownError) Error() string { return e.Kind.Error() + e.detail() }

// UserError is the error as a person reads it: `unknown player "x" (...)`.
func (e *UnknownError) UserError() string { return "unknown player" + e.detail() }

// detail is the name, a suggestion and the known names.
func (e *UnknownError) detail() string {
	hint := ""
	if s := spell.Suggest(e.Name, e.Known); len(s) > 0 {
		hint = "did you mean " + strings.Join(s, " or ") + "?; "
	}
	return fmt.Sprintf(" %q (%sknown: %s)", e.Name, hint, strings.Join(e.Known, ", "))
}

// Unwrap returns Kind.
func (e *UnknownError) Unwrap() error { return e.Kind }

// BuildError is New's error for a player that cannot be built for the
// rules with its settings: `players: stateplayer2: ERR`. UserError is the
// same without the package's prefix, for the CLI.
type BuildError struct {
	Prefix string // the roster's ("players")
	Name   string // the player's
	Err    error
}

func (e *BuildError) Error() string { return e.Prefix + ": " + e.UserError() }

// UserError is the error as a person reads it: `stateplayer2: ERR`.
func (e *BuildError) UserError() string { return e.Name + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *BuildError) Unwrap() error { return e.Err }

// New builds the factory of the player called name for rules, with the YAML
// settings load overlays on its defaults (nil = built-in defaults).
func (r *Roster[R, F]) New(name string, rules R, load Loader) (F, error) {
	e, err := r.Lookup(name)
	if err != nil {
		var zero F
		return zero, err
	}
	f, err := e.Build(rules, load)
	if err != nil {
		var zero F
		return zero, &BuildError{Prefix: r.prefix, Name: name, Err: err}
	}
	return f, nil
}

// Register fills the place Reserve kept for e.Name with e, or appends e
// when no place is kept. It fails on an entry with no name or no Build and
// on a name already registered.
func (r *Roster[R, F]) Register(e Entry[R, F]) error {
	if e.Name == "" || e.Build == nil {
		return fmt.Errorf("%s: register %q: an entry needs a name and a Build", r.prefix, e.Name)
	}
	e.reserved = false
	for i, old := range r.entries {
		if old.Name != e.Name {
			continue
		}
		if !old.reserved {
			return fmt.Errorf("%s: register %q: registered twice", r.prefix, e.Name)
		}
		r.entries[i] = e
		return nil
	}
	r.entries = append(r.entries, e)
	return nil
}
