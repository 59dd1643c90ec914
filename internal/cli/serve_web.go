package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"

	"github.com/kaisen-ai/kaisen/games"
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

// webPlay is the "play the house AI" of the spectator pages, nil when off
// or when no listener's game has browser play (games.Game.Browse): one
// game per listener game, in listener order, each against its listener's
// house AI (the game's default AI, kaisen play's, when the listener pairs
// clients or its house is a program) on the listener's rules, with the
// first listener's human action timeout.
func webPlay(f serveFlags, cfg server.Config) *web.PlayOptions {
	if !f.webPlay || len(cfg.Listeners) == 0 {
		return nil
	}
	o := &web.PlayOptions{Timeout: cfg.Listeners[0].WithDefaults().HumanActionTimeout, Key: webKey(cfg.Seed), MaxPerAddr: f.webTablesPerIP}
	for _, lc := range cfg.Listeners {
		l := lc.WithDefaults()
		name := l.Game
		if name == "" {
			name = server.GameSubmarine
		}
		g, err := games.Lookup(name)
		if err != nil || g.Browse == nil || slices.ContainsFunc(o.Games, func(p web.PlayGame) bool { return p.Game == name }) {
			continue
		}
		house := g.PlayDefault
		if l.HouseIsAI() {
			house = l.Opponent
		}
		o.Games = append(o.Games, web.PlayGame{Game: name, House: house, Listener: &l})
	}
	if len(o.Games) == 0 {
		return nil
	}
	o.Game, o.House = o.Games[0].Game, o.Games[0].House
	return o
}
