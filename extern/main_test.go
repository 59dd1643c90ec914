package extern_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The programs the tests run as bots, built once: kaisen itself (kaisen
// play is a well-behaved bot) and testdata/hostile.
var kaisenBin, hostileBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kaisen-bot-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	kaisenBin, hostileBin = filepath.Join(dir, "kaisen"), filepath.Join(dir, "hostile")
	for _, b := range [][2]string{{kaisenBin, "../cmd/kaisen"}, {hostileBin, "./testdata/hostile"}} {
		out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", b[1], err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
