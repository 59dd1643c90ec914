// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb
// into a temporary directory, then pg_ctl start listening on a unix
// socket in that directory only (no TCP port to collide with), trust
// authentication, fsync off. As root it runs the server as the postgres
// user (initdb refuses root). Debian's postgresql package provides the
// programs; scripts/install-test-deps.sh installs it.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// InstallHint is what to run when PostgreSQL is missing.
const InstallHint = "install PostgreSQL with scripts/install-test-deps.sh (Debian: apt-get install -y postgresql)"

// ErrNoPostgres is wrapped by Start's error when PostgreSQL's programs
// are not installed.
var ErrNoPostgres = errors.New("pgtest: PostgreSQL not installed")

// Cluster is a running throwaway cluster.
type Cluster struct {
	dir  string // the data directory's parent, also the socket directory
	bin  string // the directory of pg_ctl
	asPG bool   // run the programs as the postgres user (we are root)
	dbs  atomic.Int64
}

// binDir finds PostgreSQL's programs: Debian's /usr/lib/postgresql/N/bin
// (the newest), else initdb on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	version := func(d string) int { n, _ := strconv.Atoi(filepath.Base(filepath.Dir(d))); return n }
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("%w: initdb is neither in /usr/lib/postgresql/*/bin nor on PATH", ErrNoPostgres)
}

// cmd runs one of the cluster's programs.
func (c *Cluster) cmd(name string, args ...string) *exec.Cmd {
	prog := filepath.Join(c.bin, name)
	if c.asPG {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", prog}, args...)...)
	}
	return exec.Command(prog, args...)
}

// Start creates and starts a cluster.
func Start() (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kaisen-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c := &Cluster{dir: dir, bin: bin}
	fail := func(err error) (*Cluster, error) {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if os.Geteuid() == 0 {
		c.asPG = true
		if out, err := exec.Command("chown", "postgres:", dir).CombinedOutput(); err != nil {
			return fail(fmt.Errorf("pgtest: chown %s to postgres (initdb refuses root): %w: %s", dir, err, out))
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := c.cmd("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		return fail(fmt.Errorf("pgtest: initdb: %w: %s", err, out))
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off -c max_connections=60", dir)
	if out, err := c.cmd("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", opts, "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		return fail(fmt.Errorf("pgtest: pg_ctl start: %w: %s\n%s", err, out, log))
	}
	return c, nil
}

// Stop stops the cluster at once and removes it.
func (c *Cluster) Stop() {
	_ = c.cmd("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "stop").Run()
	_ = os.RemoveAll(c.dir)
}

// URL is the postgres:// URL of database db in the cluster, over its socket.
func (c *Cluster) URL(db string) string {
	return "postgres://postgres@/" + db + "?host=" + url.QueryEscape(c.dir)
}

// NewDatabase creates an empty database and returns its URL.
func (c *Cluster) NewDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("kaisen_%d_%d", os.Getpid(), c.dbs.Add(1))
	admin, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("pgtest: create database: %w", err)
	}
	return c.URL(name), nil
}

// shared is the cluster of this test process (DSN starts it).
var shared struct {
	once sync.Once
	c    *Cluster
	err  error
}

// DSN returns the URL of a new database in the test process's cluster,
// started at the first call. Without PostgreSQL the test fails, naming
// the install script: PostgreSQL tests are never skipped silently. Call
// StopShared from TestMain.
func DSN(t testing.TB) string {
	t.Helper()
	shared.once.Do(func() { shared.c, shared.err = Start() })
	if shared.err != nil {
		t.Fatalf("PostgreSQL is needed by this test: %v\n%s", shared.err, InstallHint)
	}
	dsn, err := shared.c.NewDatabase(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}

// StopShared stops the cluster DSN started, if any.
func StopShared() {
	if shared.c != nil {
		shared.c.Stop()
	}
}
