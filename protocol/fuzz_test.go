package protocol_test

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/protocol/transcript"
)

// goldenDir holds the submarine game's golden transcripts, whose lines
// seed FuzzLineReader.
const goldenDir = "../game/submarine/wire/testdata"

// goldenText returns every protocol line of the golden transcripts, each
// followed by "\n".
func goldenText(f *testing.F) []byte {
	f.Helper()
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	require.NoError(f, err)
	require.NotEmpty(f, paths)
	var all bytes.Buffer
	for _, p := range paths {
		tr, err := transcript.Load(p)
		require.NoError(f, err)
		for player := 1; player <= 2; player++ {
			for _, l := range tr.Side(player) {
				all.WriteString(l.Text)
				all.WriteByte('\n')
			}
		}
	}
	return all.Bytes()
}

func FuzzLineReader(f *testing.F) {
	f.Add(goldenText(f), 0)
	f.Add([]byte("your turn\r\nwaiting\r\n"), 5)
	f.Add([]byte("a\r\r\nbb\n\nccc"), 2)
	f.Add([]byte(strings.Repeat("x", 300)+"\nok\n"), 100)
	f.Fuzz(func(t *testing.T, in []byte, limit int) {
		limit = limit%512 + 1
		if limit < 1 {
			limit += 512
		}
		// Expected: split on "\n", drop one trailing "\r" per line, no final
		// empty line after a trailing "\n"; longer lines are errors.
		parts := strings.Split(string(in), "\n")
		if parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		var want []string
		for _, p := range parts {
			p = strings.TrimSuffix(p, "\r")
			if len(p) > limit {
				p = "<too long>"
			}
			want = append(want, p)
		}
		lr := protocol.NewLineReader(bytes.NewReader(in), limit)
		var got []string
		for {
			line, err := lr.ReadLine()
			if errors.Is(err, io.EOF) {
				break
			}
			if errors.Is(err, protocol.ErrLineTooLong) {
				got = append(got, "<too long>")
				continue
			}
			require.NoError(t, err)
			require.LessOrEqual(t, len(line), limit)
			got = append(got, string(line))
		}
		require.Equal(t, want, got)
	})
}
