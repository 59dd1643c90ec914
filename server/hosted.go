package server

// Record stores a game that a host played outside the server's listeners
// (the web page's games against the house AI: internal/web) as the server
// stores its own: the replay file rp (nil: none) in the replay directory,
// named in res.Replay when written, the result log line and the metrics.
// The host tells its spectator itself (the server's spectator is not
// told). A game between two authenticated bots would be rated: hosts
// record games of people, never of bots.
func (s *Server) Record(res *Result, rp []byte) {
	log := s.log.With("host", res.Listener)
	if s.cfg.ReplayDir == "" { // the server keeps no replays
		rp = nil
	}
	_ = s.store(log, res, rp) // a game without two bots is never rated: no error
	logOver(log, res)
}
