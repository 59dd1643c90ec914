package race

import (
	"regexp"
	"strings"
	"testing"
)

// FullSizePattern selects the tests the non-race CI step runs: every test
// whose top-level name contains FullSize or Golden.
const FullSizePattern = "FullSize|Golden"

// FullSizeStep names the step of .ci/run that runs the tests FullSizePattern
// selects, without the race detector.
const FullSizeStep = `"full-size checks and golden figures" (scripts/test.sh --full: go test -run '` + FullSizePattern + `' on the packages that have such tests, no -race)`

var fullSizeName = regexp.MustCompile(FullSizePattern)

// SkipFullSize skips t under the race detector or -short and says which CI
// step runs it instead. It fails t when its top-level name would not be
// selected by that step, so no test is skipped in CI without running
// somewhere.
func SkipFullSize(t testing.TB) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	if !fullSizeName.MatchString(top) {
		t.Fatalf("race: %s calls SkipFullSize but the CI step %s would not select it; put FullSize or Golden in its name", top, FullSizeStep)
	}
	switch {
	case Enabled:
		t.Skip("too slow under -race; .ci/run runs it in the step " + FullSizeStep)
	case testing.Short():
		t.Skip("too slow for -short; .ci/run runs it in the step " + FullSizeStep)
	}
}
