package human

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// deadlineOut is an output that knows the host's time per action.
type deadlineOut struct {
	bytes.Buffer
	d time.Duration
}

func (o *deadlineOut) TurnTime() time.Duration { return o.d }

// TestPromptsShowTimeLeft: with a known time per action every prompt says
// the time left, counted from the start of the placement or the turn;
// without one the prompts are unchanged.
func TestPromptsShowTimeLeft(t *testing.T) {
	r := submarine.DefaultRules()
	out := &deadlineOut{d: 30 * time.Second}
	in := bufio.NewReader(strings.NewReader("0 0\nr\n"))
	h := NewPerson(SubmarineText(r, out, rand.New(rand.NewPCG(1, 2))), in, out)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h.now = func() time.Time { t := clock; clock = clock.Add(20 * time.Second); return t }
	h.Place()
	got := out.String()
	require.Contains(t, got, "placement (10s left)> ", "the first prompt, 20 s after the start")
	require.Contains(t, got, "placement (time is up: the server may have ended the game)> ", "the second, 40 s after it")

	var plain bytes.Buffer
	p := NewPerson(SubmarineText(r, &plain, rand.New(rand.NewPCG(1, 2))), bufio.NewReader(strings.NewReader("r\n")), &plain)
	p.Place()
	require.Contains(t, plain.String(), "placement> ")
	require.NotContains(t, plain.String(), "left)")
}
