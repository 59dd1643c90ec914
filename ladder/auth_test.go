package ladder

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseAuth(t *testing.T) {
	token := TokenPrefix + strings.Repeat("A", 43)
	name, tok, err := ParseAuth("auth mybot " + token)
	require.NoError(t, err)
	require.Equal(t, "mybot", name)
	require.Equal(t, token, tok)
	for _, tt := range []struct{ name, line, msg string }{
		{"empty", "", "want"},
		{"no token", "auth mybot", "want"},
		{"other word", "login mybot " + token, "want"},
		{"two spaces", "auth  mybot " + token, "want"},
		{"trailing data", "auth mybot " + token + " x", "want"},
		{"bad name", "auth my\x1bbot " + token, "bad bot name"},
		{"short token", "auth mybot " + token[:20], "not a token"},
		{"token without prefix", "auth mybot xx_" + strings.Repeat("A", 43), "not a token"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseAuth(tt.line)
			require.ErrorIs(t, err, ErrAuthLine)
			require.ErrorContains(t, err, tt.msg)
			require.NotContains(t, err.Error(), strings.Repeat("A", 10), "the token is never in the error")
		})
	}
}

// TestLimiter: Max failures within Window lock a key out until the oldest
// expires; a success clears; keys are independent; memory is bounded.
func TestLimiter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := NewLimiter(3, time.Minute)
	for i := range 3 {
		require.True(t, l.Allow("10.0.0.0/24", t0.Add(time.Duration(i)*time.Second)))
		l.Fail("10.0.0.0/24", t0.Add(time.Duration(i)*time.Second))
	}
	require.False(t, l.Allow("10.0.0.0/24", t0.Add(3*time.Second)), "locked after 3 failures")
	require.True(t, l.Allow("10.0.1.0/24", t0.Add(3*time.Second)), "another network is not")
	require.False(t, l.Allow("10.0.0.0/24", t0.Add(time.Minute-time.Nanosecond)))
	require.True(t, l.Allow("10.0.0.0/24", t0.Add(time.Minute)), "the oldest failure expired")
	l.Fail("10.0.0.0/24", t0.Add(time.Minute))
	require.False(t, l.Allow("10.0.0.0/24", t0.Add(time.Minute)))
	l.Succeed("10.0.0.0/24")
	require.True(t, l.Allow("10.0.0.0/24", t0.Add(time.Minute)))

	// Failures recorded while locked count too: the lock holds until the
	// third newest is Window old.
	for i := range 10 {
		l.Fail("x", t0.Add(time.Duration(i)*time.Second))
	}
	require.False(t, l.Allow("x", t0.Add(7*time.Second+time.Minute-time.Nanosecond)))
	require.True(t, l.Allow("x", t0.Add(7*time.Second+time.Minute)))

	small := NewLimiter(2, time.Minute)
	small.MaxKeys = 100
	for i := range 1000 {
		small.Fail(fmt.Sprint(i), t0)
	}
	require.LessOrEqual(t, len(small.fails), 100, "memory is bounded")
}

// FuzzParseAuth: any line parses to a valid name and a well-formed token,
// or to an ErrAuthLine error that never contains what follows the name.
func FuzzParseAuth(f *testing.F) {
	f.Add("auth mybot kt_" + strings.Repeat("A", 43))
	f.Add("auth mybot secret")
	f.Add("auth  mybot kt_x")
	f.Add("0,0 1,1 2,2 3,3")
	f.Add("auth \x1b[31m kt_" + strings.Repeat("z", 43))
	f.Fuzz(func(t *testing.T, line string) {
		name, token, err := ParseAuth(line)
		if err != nil {
			require.ErrorIs(t, err, ErrAuthLine)
			if f := strings.Split(line, " "); len(f) == 3 && len(f[2]) >= 8 && !strings.Contains(f[0]+" "+f[1], f[2]) {
				require.NotContains(t, err.Error(), f[2], "the error quotes the token")
			}
			return
		}
		require.NoError(t, ValidName(name))
		require.Equal(t, AuthWord+" "+name+" "+token, line)
		require.True(t, strings.HasPrefix(token, TokenPrefix))
	})
}
