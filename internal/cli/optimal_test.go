package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func optimalRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), append([]string{"optimal"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestOptimalJSON: the values of two small boards (checked against a plain
// search in package bsoptimal) and the identities between the columns.
func TestOptimalJSON(t *testing.T) {
	code, stdout, stderr := optimalRun(t, "3x4:2,1", "3x3:2,1", "--json")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "3x4:2,1: ")
	var got struct {
		Boards []optimalRow `json:"boards"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Boards, 2)
	b := got.Boards[0]
	require.Equal(t, "3x4", b.Board)
	require.Equal(t, "2,1", b.Fleet)
	require.Equal(t, 74, b.Layouts)
	require.InDelta(t, 244.0/37, b.Optimal, 1e-9) // 6.594594...: the plain search's value
	require.Equal(t, "greedy", b.Policy)
	require.InDelta(t, b.Value-b.Optimal, b.Gap, 1e-9)
	require.InDelta(t, b.Gap, b.Hunt+b.Target, 1e-9)
	require.InDelta(t, 100*b.Gap/b.Optimal, b.GapPct, 1e-9)
	require.Positive(t, b.States)
	// 3x3 with a 2- and a 1-cell ship: greedy is optimal
	require.InDelta(t, 59.0/12, got.Boards[1].Optimal, 1e-9)
	require.InDelta(t, 0, got.Boards[1].Gap, 1e-9)
}

// TestOptimalTable: the table and --worst's positions.
func TestOptimalTable(t *testing.T) {
	code, stdout, stderr := optimalRun(t, "3x4:2,1", "--worst", "1")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "board  fleet  layouts  optimal  greedy     gap     %    hunt  target     tie  states")
	require.Contains(t, stdout, "3x4    2,1       74   6.5946  6.7342  0.1396  2.12  0.1396  0.0000  0.0000")
	require.Contains(t, stdout, "3x4 2,1, position 1: reach 1.0000, greedy loses 0.0270 shots there (0.0270 on average)\n...\n...\n...\n...\ngreedy: B1 B4   optimal: A1 C1 A4 C4\n")
}

func TestOptimalRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"10x10:4,3,3,2,2,2,1,1,1,1"}, 1, "10x10 board has 100 cells, the exact solver takes at most 64"},
		{[]string{"4x4:2,1", "--max-states", "50"}, 1, "more than 50 knowledge states"},
		{[]string{"4x4"}, 2, `"4x4": want BOARD:FLEET`},
		{[]string{"4y4:2,1"}, 2, `board "4y4": want WIDTHxHEIGHT`},
		{[]string{"3x3:3,3,3,1"}, 2, "needs 10 cells"},
		{[]string{"2x2:1,1"}, 1, "fleet 1,1 does not fit on the 2x2 board"},
		{[]string{"3x3:2", "--worst", "-1"}, 2, "--worst -1"},
		{nil, 2, "requires at least 1 arg"},
		{[]string{"3x3:2", "--policy", "best"}, 2, `unknown policy "best"`},
		{[]string{"3x3:2", "--policy", "entropy:x"}, 2, "the weight is not a number from 0 to 10"},
	} {
		code, _, stderr := optimalRun(t, tc.args...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, stderr)
		require.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestOptimalPolicy: --policy names the column and the positions; on 4x3
// with a 3 and a 1 greedy's ties cost 0.1029 shots and breaking them by
// the entropy of the answer plays perfectly.
func TestOptimalPolicy(t *testing.T) {
	code, stdout, stderr := optimalRun(t, "4x3:3,1", "--policy", "entropy-tie")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "board  fleet  layouts  optimal  entropy-tie     gap     %    hunt  target     tie  states")
	require.Contains(t, stdout, "4x3    3,1       34   6.2941       6.2941  0.0000  0.00")
	code, stdout, stderr = optimalRun(t, "3x4:2,1", "--policy", "lookahead", "--json")
	require.Equal(t, 0, code, stderr)
	var got struct {
		Boards []optimalRow `json:"boards"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Equal(t, "lookahead", got.Boards[0].Policy)
	require.Greater(t, got.Boards[0].Gap, 0.0)
}

// TestOptimalInterrupted: a cancelled context stops the search with exit
// code 130.
func TestOptimalInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := Run(ctx, []string{"optimal", "4x4:2,1"}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, ExitInterrupted, code, errOut.String())
}
