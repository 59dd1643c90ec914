package roster_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/roster"
)

var errUnknown = errors.New("test: unknown player")

func testRoster() *roster.Roster[int, string] {
	return roster.New(errUnknown, "test", []roster.Entry[int, string]{
		{Name: "echo", Summary: "the rules as text", Build: func(r int, path string) (string, error) {
			return path + ":" + string(rune('0'+r)), nil
		}},
		{Name: "broken", Build: func(int, string) (string, error) { return "", errors.New("bad config") }},
	}...)
}

func TestRoster(t *testing.T) {
	r := testRoster()
	require.Equal(t, []string{"echo", "broken"}, r.Names())

	e, err := r.Lookup("echo")
	require.NoError(t, err)
	require.Equal(t, "the rules as text", e.Summary)

	got, err := r.New("echo", 7, "c.yaml")
	require.NoError(t, err)
	require.Equal(t, "c.yaml:7", got)

	_, err = r.New("nobody", 1, "")
	require.ErrorIs(t, err, errUnknown)
	require.EqualError(t, err, `test: unknown player "nobody" (known: echo, broken)`)

	_, err = r.New("broken", 1, "")
	require.EqualError(t, err, "test: broken: bad config")
}

func TestEntriesIsACopy(t *testing.T) {
	r := testRoster()
	es := r.Entries()
	es[0].Name = "changed"
	require.Equal(t, "echo", r.Entries()[0].Name)
}
