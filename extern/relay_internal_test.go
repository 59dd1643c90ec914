package extern

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLineTap(t *testing.T) {
	long := strings.Repeat("x", maxTapLine+10)
	tests := []struct {
		name   string
		chunks []string
		want   []string
	}{
		{"one line", []string{"you win\n"}, []string{"you win"}},
		{"split across reads", []string{"you ", "wi", "n\nround2. ple", "ase\n"}, []string{"you win", "round2. please"}},
		{"crlf", []string{"even\r\n"}, []string{"even"}},
		{"no end of line yet", []string{"you lose"}, nil},
		{"empty lines", []string{"\n\n"}, []string{"", ""}},
		{"an over-long line is cut", []string{long[:100], long[100:] + "\nok\n"}, []string{long[:maxTapLine], "ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var l lineTap
			for _, c := range tt.chunks {
				l.feed([]byte(c), func(line []byte) { got = append(got, string(line)) })
			}
			require.Equal(t, tt.want, got)
		})
	}
}
