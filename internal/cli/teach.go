package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/internal/spell"
)

// userWorded is an error with a wording for people besides its Go one
// (without the package's prefix: roster.UnknownError, roster.BuildError).
type userWorded interface {
	error
	UserError() string
}

// teach is err as kaisen prints it: its message with every error of its
// chain that has a wording for people (userWorded) worded so, and for an
// AI unknown in the game played that is an AI of another game, which game
// it belongs to and the flag that plays it.
func teach(err error) string {
	msg := err.Error()
	for _, u := range worded(err) {
		msg = strings.Replace(msg, u.Error(), u.UserError(), 1)
	}
	var ue *roster.UnknownError
	if !errors.As(err, &ue) {
		return msg
	}
	var in []string
	for _, g := range games.All() {
		if errors.Is(err, g.ErrUnknownPlayer) {
			continue
		}
		if slices.ContainsFunc(g.Players(), func(p games.Player) bool { return p.Name == ue.Name }) {
			in = append(in, g.Name)
		}
	}
	if len(in) == 0 {
		return msg
	}
	flags := make([]string, len(in))
	for i, g := range in {
		flags[i] = "--game " + g
	}
	return fmt.Sprintf("%s\n%s is an AI of the %s game, not of this one: add %s", msg, ue.Name, strings.Join(in, " or the "), strings.Join(flags, " or "))
}

// worded lists the errors of err's tree that are userWorded, outermost
// first.
func worded(err error) []userWorded {
	var out []userWorded
	stack := []error{err}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if u, ok := e.(userWorded); ok {
			out = append(out, u)
			continue // its text is replaced whole
		}
		switch w := e.(type) {
		case interface{ Unwrap() error }:
			if n := w.Unwrap(); n != nil {
				stack = append(stack, n)
			}
		case interface{ Unwrap() []error }:
			stack = append(stack, w.Unwrap()...)
		}
	}
	return out
}

// flagError rewrites a flag's parse error for people: a bad value says
// what the flag wants, without Go's parser internals (`--seed: want a
// non-negative integer, got "abc"`), and an unknown flag suggests the
// command's flags that look like it. Both are usage errors.
func flagError(cmd *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	var ne *pflag.NotExistError
	switch {
	case errors.As(err, &iv):
		f := iv.GetFlag()
		return usageError("--%s: want %s, got %q", f.Name, valueWant(f.Value.Type()), iv.GetValue())
	case errors.As(err, &ne) && ne.GetSpecifiedShortnames() == "":
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if s := spell.Suggest(ne.GetSpecifiedName(), names); len(s) > 0 {
			for i := range s {
				s[i] = "--" + s[i]
			}
			return usageError("%v (did you mean %s?)", err, strings.Join(s, " or "))
		}
	}
	return &UsageError{Err: err}
}

// valueWant says what a flag of pflag type typ wants.
func valueWant(typ string) string {
	switch {
	case strings.HasPrefix(typ, "uint"):
		return "a non-negative integer"
	case strings.HasPrefix(typ, "int"):
		return "an integer"
	case strings.HasPrefix(typ, "float"):
		return "a number"
	case typ == "duration":
		return "a duration with a unit, such as 500ms, 10s or 5m"
	case typ == "bool":
		return "true or false"
	}
	return "a " + typ
}
