package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestServeWebFlags(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	code, _, stderr := playRun(t, "serve", "--web-reveal", "--listen", "127.0.0.1:0")
	assert.Equal(t, ExitUsage, code, stderr)
	assert.Contains(t, stderr, "--web-reveal shows the fleets on the spectator pages: it needs --web")
}
