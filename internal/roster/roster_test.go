package roster_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/roster"
)

var errUnknown = errors.New("test: unknown player")

// echoConfig is a player config with a range check.
type echoConfig struct{ Prefix string }

func (c *echoConfig) Validate() error {
	if c.Prefix == "" {
		return errors.New("prefix is empty")
	}
	return nil
}

func testRoster() *roster.Roster[int, string] {
	return roster.New(errUnknown, "test", []roster.Entry[int, string]{
		{Name: "echo", Summary: "the rules as text", Build: func(r int, load roster.Loader) (string, error) {
			cfg, err := roster.Configure(load, echoConfig{Prefix: "default"})
			return cfg.Prefix + ":" + string(rune('0'+r)), err
		}},
		{Name: "broken", Build: func(int, roster.Loader) (string, error) { return "", errors.New("bad config") }},
	}...)
}

func TestRoster(t *testing.T) {
	r := testRoster()
	require.Equal(t, []string{"echo", "broken"}, r.Names())

	e, err := r.Lookup("echo")
	require.NoError(t, err)
	require.Equal(t, "the rules as text", e.Summary)

	got, err := r.New("echo", 7, nil)
	require.NoError(t, err)
	require.Equal(t, "default:7", got)

	got, err = r.New("echo", 7, func(into any) error { into.(*echoConfig).Prefix = "file"; return nil })
	require.NoError(t, err)
	require.Equal(t, "file:7", got)

	_, err = r.New("echo", 7, func(into any) error { into.(*echoConfig).Prefix = ""; return nil })
	require.EqualError(t, err, "test: echo: prefix is empty")

	_, err = r.New("echo", 7, func(any) error { return errors.New("unreadable") })
	require.EqualError(t, err, "test: echo: unreadable")

	_, err = r.New("nobody", 1, nil)
	require.ErrorIs(t, err, errUnknown)
	require.EqualError(t, err, `test: unknown player "nobody" (known: echo, broken)`)
	_, err = r.Lookup("ecoh")
	require.EqualError(t, err, `test: unknown player "ecoh" (did you mean echo?; known: echo, broken)`)
	var ue *roster.UnknownError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, `unknown player "ecoh" (did you mean echo?; known: echo, broken)`, ue.UserError())

	_, err = r.New("broken", 1, nil)
	require.EqualError(t, err, "test: broken: bad config")
}

func TestEntriesIsACopy(t *testing.T) {
	r := testRoster()
	es := r.Entries()
	es[0].Name = "changed"
	require.Equal(t, "echo", r.Entries()[0].Name)
}

// TestRegister: a reserved place keeps its order and fails to build until
// Register fills it; other names are appended; bad or repeated entries are
// refused.
func TestRegister(t *testing.T) {
	r := roster.New(errUnknown, "test", []roster.Entry[int, string]{
		roster.Reserve[int, string]("late", "example.com/late"),
		{Name: "echo", Build: func(int, roster.Loader) (string, error) { return "echo", nil }},
	}...)
	_, err := r.New("late", 1, nil)
	require.EqualError(t, err, "test: late: not linked: import example.com/late")

	build := func(int, roster.Loader) (string, error) { return "late", nil }
	require.NoError(t, r.Register(roster.Entry[int, string]{Name: "late", Summary: "filled", Build: build}))
	require.NoError(t, r.Register(roster.Entry[int, string]{Name: "extra", Build: build}))
	require.Equal(t, []string{"late", "echo", "extra"}, r.Names())
	got, err := r.New("late", 1, nil)
	require.NoError(t, err)
	require.Equal(t, "late", got)

	require.Error(t, r.Register(roster.Entry[int, string]{Name: "late", Build: build}), "registered twice")
	require.Error(t, r.Register(roster.Entry[int, string]{Name: "echo", Build: build}), "not reserved")
	require.Error(t, r.Register(roster.Entry[int, string]{Name: "nobuild"}))
	require.Error(t, r.Register(roster.Entry[int, string]{Build: build}))
}
