package deploy

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kaisen builds the kaisen binary into a temporary directory.
func kaisen(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kaisen")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/kaisen-ai/kaisen/cmd/kaisen").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// run runs a shell script with env added to the environment.
func run(t *testing.T, shell, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command(shell, "-c", script)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return string(out)
}

// withoutTiming decodes a --json line and drops its timing fields.
func withoutTiming(t *testing.T, line string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(line)), &m), line)
	delete(m, "games_per_sec")
	delete(m, "ms_per_move_p99")
	return m
}

// unsharded is the --json line of the run on one machine.
func unsharded(t *testing.T, bin, args string) map[string]any {
	t.Helper()
	out, err := exec.Command(bin, append(strings.Fields(args), "--json")...).Output()
	require.NoError(t, err)
	return withoutTiming(t, string(out))
}

const testArgs = "match --p1 random --p2 stateplayer2 -n 37 --seed 5"

// TestSlurm runs the array job's script as Slurm would, task by task, then
// the merge script, and compares the merged result with the unsharded run.
func TestSlurm(t *testing.T) {
	bin := kaisen(t)
	results := t.TempDir()
	env := []string{"KAISEN=" + bin, "KAISEN_ARGS=" + testArgs, "RESULTS=" + results, "SLURM_CPUS_PER_TASK=1"}
	const n = 3
	for k := 1; k <= n; k++ {
		run(t, "bash", "slurm/shard.sbatch", append(env, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", k), fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", n))...)
	}
	files, err := filepath.Glob(filepath.Join(results, "*"))
	require.NoError(t, err)
	assert.Len(t, files, n, "one file per shard, no temporary file left: %v", files)
	out := run(t, "bash", "slurm/merge.sbatch", env...)
	assert.Contains(t, out, "match: random (p1) vs stateplayer2 (p2), seed 5")
	merged, err := os.ReadFile(filepath.Join(results, "merged.json"))
	require.NoError(t, err)
	assert.Equal(t, unsharded(t, bin, testArgs), withoutTiming(t, string(merged)))
}

// field is the first value of "key: value" in doc, without a comment.
func field(t *testing.T, doc, key string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*(?:- )?` + key + `: (.+)$`).FindStringSubmatch(doc)
	require.NotNil(t, m, "no %s in the manifest", key)
	v, _, _ := strings.Cut(m[1], " #")
	return strings.Trim(strings.TrimSpace(v), `"`)
}

// script is the container script of a manifest (its "- |" block),
// unindented.
func script(t *testing.T, doc string) string {
	t.Helper()
	var out []string
	indent := -1
	for l := range strings.SplitSeq(doc, "\n") {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case indent < 0 && trimmed == "- |":
			indent = len(l) - len(trimmed) + 2
		case indent >= 0 && len(l)-len(trimmed) >= indent && trimmed != "":
			out = append(out, l[indent:])
		case indent >= 0:
			require.NotEmpty(t, out, "an empty script")
			return strings.Join(out, "\n") + "\n"
		}
	}
	require.NotEmpty(t, out, "no script in the manifest")
	return strings.Join(out, "\n") + "\n"
}

// TestKubernetes runs the Indexed Job's container script once per
// completion index with the manifest's environment (KAISEN_ARGS made
// small, the volume a temporary directory), then the merge Job's, and
// compares the merged result with the unsharded run.
func TestKubernetes(t *testing.T) {
	data, err := os.ReadFile("kubernetes/shards.yaml")
	require.NoError(t, err)
	shards := string(data)
	require.Equal(t, "Indexed", field(t, shards, "completionMode"))
	completions := field(t, shards, "completions")
	require.Equal(t, completions, field(t, shards, "parallelism"))
	require.Regexp(t, `name: SHARDS\n\s+value: "`+completions+`"`, shards, "SHARDS = completions")
	require.Regexp(t, `name: KAISEN_ARGS.*\n\s+value: match .*--seed \d+`, shards, "the example's run has a seed")
	data, err = os.ReadFile("kubernetes/merge.yaml")
	require.NoError(t, err)
	merge := string(data)

	bin := kaisen(t)
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	results := t.TempDir()
	const n = 4
	env := []string{"PATH=" + path, "KAISEN_ARGS=" + testArgs, "RESULTS=" + results, fmt.Sprintf("SHARDS=%d", n)}
	for i := range n {
		run(t, "sh", script(t, shards), append(env, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))...)
	}
	out := run(t, "sh", script(t, merge), env...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, unsharded(t, bin, testArgs), withoutTiming(t, lines[len(lines)-1]))
}
