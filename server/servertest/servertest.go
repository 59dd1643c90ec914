// Package servertest runs a Kaisen turn server (package server) inside a
// test, on free local ports with its files in the test's temporary
// directory, for the tests of its clients (client, loadtest, kaisen play).
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	_ "github.com/kaisen-ai/kaisen/games" // registers the registry's games with the server (battleship, abilities ...)
	"github.com/kaisen-ai/kaisen/server"
)

// Server is a running server and the config it runs with.
type Server struct {
	*server.Server
	Config server.Config
}

// Config is the default server config with the given listeners (none: the
// default listener), every listener and the metrics endpoint on a free
// port of 127.0.0.1, the result log and replays in t's temporary
// directory, seed seed and a shutdown grace of 5 s.
func Config(t testing.TB, seed uint64, listeners ...server.ListenerConfig) server.Config {
	t.Helper()
	cfg := server.DefaultConfig()
	if len(listeners) > 0 {
		cfg.Listeners = nil
		for _, l := range listeners {
			cfg.Listeners = append(cfg.Listeners, l.WithDefaults())
		}
	}
	for i := range cfg.Listeners {
		cfg.Listeners[i].Address = "127.0.0.1:0"
	}
	cfg.Metrics = "127.0.0.1:0"
	dir := t.TempDir()
	cfg.ResultLog = filepath.Join(dir, "results.jsonl")
	cfg.ReplayDir = filepath.Join(dir, "replays")
	cfg.Seed = seed
	cfg.ShutdownGrace = 5 * time.Second
	return cfg
}

// Start runs a server with cfg until t ends, then stops it and checks that
// Serve returned cleanly.
func Start(t testing.TB, cfg server.Config) *Server {
	t.Helper()
	s, err := server.New(cfg, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	require.NoError(t, s.Listen())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(15 * time.Second):
			t.Error("server did not stop")
		}
	})
	return &Server{Server: s, Config: cfg}
}

// Addr is the address of listener i.
func (s *Server) Addr(i int) string { return s.Addrs()[i].String() }

// Results reads the result log.
func (s *Server) Results(t testing.TB) []server.Result {
	t.Helper()
	b, err := os.ReadFile(s.Config.ResultLog)
	require.NoError(t, err)
	var rs []server.Result
	for line := range bytes.Lines(b) {
		var r server.Result
		require.NoError(t, json.Unmarshal(line, &r), "result line %s", line)
		rs = append(rs, r)
	}
	return rs
}

// WaitResults waits (10 s at most) until the result log has n games and
// returns them; the server logs a game right after its last line to the
// clients.
func (s *Server) WaitResults(t testing.TB, n int) []server.Result {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		rs := s.Results(t)
		if len(rs) >= n {
			return rs
		}
		if time.Now().After(deadline) {
			t.Fatalf("result log has %d games, want %d", len(rs), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
