package transcript_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/protocol/transcript"
)

const sample = `# A comment.
#
# dialect: classic
# rounds: 2
P1 S>C round1. please send me initial state.
P1 C>S {"w":[0,0],"c":[2,0],"s":[4,0]}

P2 S>C waiting
P2 S>C
P2 S>C ####################
`

func TestParseFormat(t *testing.T) {
	tr, err := transcript.Parse(strings.NewReader(sample))
	require.NoError(t, err)
	require.Equal(t, []string{"A comment.", ""}, tr.Comments)
	require.Equal(t, "classic", tr.Get("dialect"))
	require.Equal(t, "2", tr.Get("rounds"))
	require.Equal(t, "", tr.Get("board"))
	require.Equal(t, []transcript.Line{
		{Player: 1, Dir: transcript.ToClient, Text: "round1. please send me initial state."},
		{Player: 1, Dir: transcript.ToServer, Text: `{"w":[0,0],"c":[2,0],"s":[4,0]}`},
		{Player: 2, Dir: transcript.ToClient, Text: "waiting"},
		{Player: 2, Dir: transcript.ToClient, Text: ""},
		{Player: 2, Dir: transcript.ToClient, Text: "####################"},
	}, tr.Lines)
	require.Len(t, tr.Side(2), 3)
	require.Equal(t, []string{`{"w":[0,0],"c":[2,0],"s":[4,0]}`}, tr.Texts(1, transcript.ToServer))

	back, err := transcript.Parse(strings.NewReader(string(tr.Format())))
	require.NoError(t, err)
	require.Equal(t, tr, back)
	require.Equal(t, strings.Replace(sample, "\n\nP2", "\nP2", 1), string(tr.Format()))
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"P3 S>C x\n", "P1 X>Y x\n", "P1 S>Cx\n", "hello\n"} {
		_, err := transcript.Parse(strings.NewReader(bad))
		require.ErrorIs(t, err, transcript.ErrFormat, bad)
	}
}
