package race_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

// TestCIRunsTheFullSizeStep reads .ci/run and scripts/test.sh (the README's
// test command, which .ci/run calls): the tests SkipFullSize leaves out of
// the -race run must be run by a step without -race that selects them.
func TestCIRunsTheFullSizeStep(t *testing.T) {
	ci, err := os.ReadFile("../../.ci/run")
	require.NoError(t, err)
	script, err := os.ReadFile("../../scripts/test.sh")
	require.NoError(t, err)
	require.Regexp(t, `(?m)^scripts/test\.sh$`, string(ci), ".ci/run runs the README's test command")
	require.Regexp(t, `(?m)^scripts/test\.sh --full$`, string(ci), ".ci/run runs the full-size step")
	step := regexp.MustCompile(`(?m)^\s*(exec )?go test .*-run '` + regexp.QuoteMeta(race.FullSizePattern) + `' .*\./\.\.\.$`).Find(script)
	require.NotNil(t, step, "no `go test -run '%s' ... ./...` line in scripts/test.sh", race.FullSizePattern)
	require.NotContains(t, string(step), "-race")
	require.NotContains(t, string(step), "-short")
	require.Regexp(t, `(?m)^\s*(exec )?go test -race .*\./\.\.\.$`, string(script), "the README's test command runs the suite under -race")
}

// fakeT records what SkipFullSize does without stopping the test.
type fakeT struct {
	testing.TB
	name            string
	skipped, failed string
}

func (f *fakeT) Helper()                           {}
func (f *fakeT) Name() string                      { return f.name }
func (f *fakeT) Skip(args ...any)                  { f.skipped = strings.TrimSpace(sprint(args)) }
func (f *fakeT) Fatalf(format string, args ...any) { f.failed = format }

func sprint(args []any) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a.(string))
	}
	return b.String()
}

func TestSkipFullSize(t *testing.T) {
	tests := []struct {
		name     string
		wantFail bool
	}{
		{"TestFullSizeCount", false},
		{"TestGoldenMatches/stateplayer2 vs state", false},
		{"TestCount", true},
		{"TestCount/FullSize", true}, // the step selects on the top-level name
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeT{TB: t, name: tt.name}
			race.SkipFullSize(f)
			if tt.wantFail {
				require.NotEmpty(t, f.failed)
				return
			}
			require.Empty(t, f.failed)
			if race.Enabled || testing.Short() {
				require.Contains(t, f.skipped, race.FullSizeStep, "a skip names the step that runs the test")
			} else {
				require.Empty(t, f.skipped)
			}
		})
	}
}
