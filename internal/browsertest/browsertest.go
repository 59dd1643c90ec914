// Package browsertest starts Debian's headless Chromium for browser tests
// (chromedp). Without Chromium a test fails, naming the script that installs
// it: it never skips.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// InstallScript installs the browser (run by .ci/run before the tests).
const InstallScript = "scripts/install-test-deps.sh"

// Start starts a headless Chromium for t with a fresh profile and no
// background network services, and returns its chromedp context; the
// browser stops when the test ends (or after timeout).
func Start(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if _, statErr := os.Stat("/usr/bin/chromium"); statErr != nil {
			t.Fatalf("the browser tests need Debian's chromium (/usr/bin/chromium): run %s (%v)", InstallScript, err)
		}
		path = "/usr/bin/chromium"
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1300, 1000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// Screenshot saves png as NAME.png in $KAISEN_ARTIFACTS when that is set
// (the CI keeps the directory as the tests' artefacts), else in the test's
// artefact directory (go test -artifacts keeps it), and logs where.
func Screenshot(t testing.TB, name string, png []byte) {
	t.Helper()
	dir := os.Getenv("KAISEN_ARTIFACTS")
	if dir == "" {
		dir = t.ArtifactDir()
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	t.Logf("screenshot %s (%d bytes)", path, len(png))
}
