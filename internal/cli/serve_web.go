package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/server"
)

// startWeb starts the spectator of kaisen serve --web on addr: it watches
// every game of s and serves its pages until the returned stop is called;
// reveal shows the hidden fleets during the games (--web-reveal); play
// offers "play the house AI" (--web-play); rated adds the ladder pages
// (--ladder); limits bound what the pages may cost the games (--web-rate,
// --web-max-connections...).
func startWeb(e *env, s *server.Server, addr, replayDir string, reveal bool, play *web.PlayOptions, rated web.LadderReader, limits web.Limits) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--web: %w", err)
	}
	opts := []web.Option{web.WithLimits(limits)}
	if reveal {
		opts = append(opts, web.Reveal())
	}
	if play != nil {
		p := *play
		p.Record = s // the browser's games are in the replays and the result log, as the server's
		opts = append(opts, web.Play(p))
	}
	if rated != nil {
		opts = append(opts, web.Ladder(rated))
	}
	hub := web.NewHub(replayDir, opts...)
	s.Watch(hub)
	srv := hub.Server()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(hub.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			e.log.Error("spectator", "err", err)
		}
	}()
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		e.log.Warn("the spectator pages are reachable from other machines", "addr", ln.Addr())
	}
	fmt.Fprintf(e.stdout, "spectator on http://%s/\n", ln.Addr())
	return func() {
		s.Watch(nil)
		_ = srv.Close() // also ends the open event streams
		<-done
	}, nil
}

// webPlay is the "play the house AI" of the spectator pages, nil when off:
// the first listener's house AI if it has a submarine one (not a
// program), else random,
// with the listener's human action timeout.
func webPlay(f serveFlags, cfg server.Config) *web.PlayOptions {
	if !f.webPlay || len(cfg.Listeners) == 0 {
		return nil
	}
	l := cfg.Listeners[0].WithDefaults()
	house := "random"
	if l.Opponent != server.OpponentPair && l.HouseSeat == nil && (l.Game == "" || l.Game == server.GameSubmarine) {
		house = l.Opponent
	}
	return &web.PlayOptions{House: house, Timeout: l.HumanActionTimeout, Key: webKey(cfg.Seed), MaxPerAddr: f.webTablesPerIP}
}
