package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

func countRun(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), append([]string{"count"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// seedMap is the per-cell map of the empty 10x10 board divided by 1e9, all
// ten rows as printed in shared/seeds/001-density-dp-en.txt.
const seedMap = `438487 418064 475795 466986 459000 459000 466986 475795 418064 438487
418064 273993 311381 287231 287065 287065 287231 311381 273993 418064
475795 311381 378334 357367 361127 361127 357367 378334 311381 475795
466986 287231 357367 330652 334756 334756 330652 357367 287231 466986
459000 287065 361127 334756 338709 338709 334756 361127 287065 459000
459000 287065 361127 334756 338709 338709 334756 361127 287065 459000
466986 287231 357367 330652 334756 334756 330652 357367 287231 466986
475795 311381 378334 357367 361127 361127 357367 378334 311381 475795
418064 273993 311381 287231 287065 287065 287231 311381 273993 418064
438487 418064 475795 466986 459000 459000 466986 475795 418064 438487`

func TestFullSizeCountEmptyClassicBoardPrintsTheSeedMap(t *testing.T) {
	race.SkipFullSize(t)
	code, stdout, stderr := countRun(t, "")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "layouts: 1855545978831780\n"+
		"board: 10x10, fleet afloat: 4,3,3,2,2,2,1,1,1,1\n"+
		"layouts with a ship on each cell, divided by 1e9 (integer division):\n"+
		seedMap+"\n", stdout)
}

func TestCountSmallPositions(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pos.txt")
	require.NoError(t, os.WriteFile(file, []byte("fleet: 2,1\n....\n.o..\n..x.\n....\n"), 0o600))
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{
			name: "file, exact counts",
			args: []string{file, "--div", "1"},
			want: "layouts: 22\nboard: 4x4, fleet afloat: 2,1\nlayouts with a ship on each cell:\n4 3 3 3\n3 0 4 0\n3 4 22 7\n3 0 7 0\n",
		},
		{
			name:  "stdin, auto divisor keeps small numbers",
			stdin: "fleet: 2,1\n....\n.o..\n..x.\n....\n",
			args:  []string{"-"},
			want:  "layouts: 22\nboard: 4x4, fleet afloat: 2,1\nlayouts with a ship on each cell:\n4 3 3 3\n3 0 4 0\n3 4 22 7\n3 0 7 0\n",
		},
		{
			name: "file, exact counts, on three workers",
			args: []string{file, "--div", "1", "--workers", "3"},
			want: "layouts: 22\nboard: 4x4, fleet afloat: 2,1\nlayouts with a ship on each cell:\n4 3 3 3\n3 0 4 0\n3 4 22 7\n3 0 7 0\n",
		},
		{
			name: "empty board from flags",
			args: []string{"--size", "3x2", "--fleet", "2", "--div", "1"},
			want: "layouts: 7\nboard: 3x2, fleet afloat: 2\nlayouts with a ship on each cell:\n2 3 2\n2 3 2\n",
		},
		{
			name:  "sunk ships leave the fleet, divisor 1e1",
			stdin: "fleet: 3,2,1\n###..\n.....\n.....\n.....\n",
			args:  []string{"-", "--div", "1e1"},
			want:  "layouts: 84\nboard: 5x4, fleet afloat: 2,1\nlayouts with a ship on each cell, divided by 1e1 (integer division):\n0 0 0 0 2\n0 0 0 0 2\n2 2 1 1 2\n2 2 1 2 2\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := countRun(t, tt.stdin, tt.args...)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, tt.want, stdout)
		})
	}
}

func TestCountJSON(t *testing.T) {
	code, stdout, stderr := countRun(t, "fleet: 2\n...\n...\n", "-", "--json")
	require.Equal(t, 0, code, stderr)
	var got struct {
		Width, Height int
		Remaining     []int
		Total         json.Number
		Cells         [][]json.Number
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Equal(t, 3, got.Width)
	require.Equal(t, []int{2}, got.Remaining)
	require.Equal(t, json.Number("7"), got.Total)
	require.Equal(t, [][]json.Number{{"2", "3", "2"}, {"2", "3", "2"}}, got.Cells)
}

func TestCountErrors(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{name: "bad size", args: []string{"--size", "10"}, code: 2, want: `--size "10"`},
		{name: "bad fleet", args: []string{"--fleet", "0"}, code: 2, want: "--fleet"},
		{name: "bad div", args: []string{"--size", "3x3", "--fleet", "1", "--div", "zero"}, code: 2, want: `--div "zero"`},
		{name: "missing file", args: []string{"/nonexistent/pos.txt"}, code: 1, want: "no such file"},
		{name: "bad position", stdin: "..?\n", args: []string{"-"}, code: 1, want: `stdin: battleship: invalid position: line 1`},
		{name: "bent sunk ship", stdin: "fleet: 3\n##.\n.#.\n...\n", args: []string{"-"}, code: 1, want: "not straight"},
		{name: "too many args", args: []string{"a", "b"}, code: 2, want: "accepts at most 1 arg"},
		{name: "negative workers", args: []string{"--size", "3x3", "--fleet", "1", "--workers", "-1"}, code: 2, want: "--workers -1: want 0 (one per CPU) or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := countRun(t, tt.stdin, tt.args...)
			require.Equal(t, tt.code, code)
			require.Contains(t, stderr, tt.want)
		})
	}
}

func TestCountHelpTeaches(t *testing.T) {
	code, stdout, _ := countRun(t, "", "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"o  miss", "fleet: 4,3,3,2,2,2,1,1,1,1", "Examples:", "--div"} {
		require.Contains(t, stdout, want)
	}
}

// TestCountMemoryGuard: the estimate is printed before counting, and a
// count above --max-memory is refused at once (the empty 16x16 board would
// need hundreds of GiB).
func TestCountMemoryGuard(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		code      int
		stderr    string
		stdoutHas string
	}{
		{"16x16 refused", []string{"--size", "16x16"}, ExitUsage, "more than --max-memory 4.00 GiB", ""},
		{"small board counted", []string{"--size", "5x5", "--fleet", "3,2,1", "--div", "1"}, ExitOK, "count: about ", "layouts: "},
		{"tight limit", []string{"--size", "8x8", "--fleet", "4,3,2,2,1,1", "--max-memory", "1MiB"}, ExitUsage, "needs about 38.1 MiB of memory, more than --max-memory 1.00 MiB", ""},
		{"bad limit", []string{"--max-memory", "lots"}, ExitUsage, `--max-memory "lots"`, ""},
		{"bad unit", []string{"--max-memory", "4bb"}, ExitUsage, `unit "bb"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := countRun(t, "", tt.args...)
			require.Equal(t, tt.code, code, stderr)
			require.Contains(t, stderr, tt.stderr)
			require.Contains(t, stdout, tt.stdoutHas)
			if tt.code != ExitOK {
				require.Empty(t, stdout)
			}
		})
	}
}

func TestParseBytes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
	}{{"4GiB", 4 << 30}, {"512MiB", 512 << 20}, {"1.5 GB", 1_500_000_000}, {"100", 100}, {"2kib", 2048}} {
		got, err := parseBytes(tt.in)
		require.NoError(t, err, tt.in)
		require.Equal(t, tt.want, got, tt.in)
	}
	for _, bad := range []string{"", "-1GiB", "0", "GiB", "1e400", "1PB"} {
		_, err := parseBytes(bad)
		require.Error(t, err, bad)
	}
	require.Equal(t, "4.00 GiB", formatBytes(4<<30))
	require.Equal(t, "294 TiB", formatBytes(294<<40))
	require.Equal(t, "512 B", formatBytes(512))
}
