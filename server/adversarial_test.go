package server

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// advTimeout is the handshake and action timeout of the adversarial suite:
// short, so that the silent clients lose quickly, long enough for honest
// clients under the race detector on a busy machine.
const advTimeout = 1500 * time.Millisecond

// xReader yields n bytes "x" (a line that never ends), without holding them.
type xReader struct{ n int64 }

func (r *xReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	for i := range p[:k] {
		p[i] = 'x'
	}
	r.n -= int64(k)
	return k, nil
}

// offender is one misbehaving client's script on its connection.
type offender func(c net.Conn, r *bufio.Reader) error

// oneGiB is the length of the line the huge-line clients stream.
const oneGiB = 1 << 30

// streamHuge writes a 1 GiB line without a newline and checks that the
// server cuts it off quickly: the write fails long before the end.
func streamHuge(c net.Conn) error {
	start := time.Now()
	n, err := io.Copy(c, &xReader{n: oneGiB})
	if err == nil {
		return fmt.Errorf("the server read the whole 1 GiB line")
	}
	if n > 64<<20 {
		return fmt.Errorf("the server accepted %d bytes of an over-long line", n)
	}
	if d := time.Since(start); d > 10*time.Second {
		return fmt.Errorf("the server took %v to cut off an over-long line", d)
	}
	return nil
}

// advPlace reads the greeting and sends a valid placement.
func advPlace(c net.Conn, r *bufio.Reader) error {
	if err := advExpect(r, greet); err != nil {
		return err
	}
	_, err := io.WriteString(c, p1Place+"\n")
	return err
}

// advExpect reads one line and checks it (a prefix with a trailing "*").
func advExpect(r *bufio.Reader, want string) error {
	got, err := r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("want %q, got %q and %w", want, got, err)
	}
	got = strings.TrimSuffix(got, "\n")
	if p, ok := strings.CutSuffix(want, "*"); ok && strings.HasPrefix(got, p) || got == want {
		return nil
	}
	return fmt.Errorf("got %q, want %q", got, want)
}

// advLoses expects the end of a lost game: the outcome line, "you lose"
// and the close (the offender may already be unable to read them).
func advLoses(r *bufio.Reader) error {
	for _, want := range []string{`{"outcome":false,*`, protocol.YouLose} {
		if err := advExpect(r, want); err != nil {
			return err
		}
	}
	if b, err := io.ReadAll(r); err != nil || len(b) > 0 {
		return fmt.Errorf("after the end: %q, %v", b, err)
	}
	return nil
}

// advTurn places and waits for "your turn" (the offender connects first).
func advTurn(c net.Conn, r *bufio.Reader) error {
	if err := advPlace(c, r); err != nil {
		return err
	}
	return advExpect(r, protocol.YourTurn)
}

// advCase is one misbehaving client of the adversarial suite, on a pair
// listener of its own. With lobby the offender is alone and must be dropped
// before any game starts; otherwise an honest random client plays it and
// must be told it won, and the game must be recorded with reason.
type advCase struct {
	name    string
	first   bool          // the offender connects first: seat 0, moves first
	think   time.Duration // the honest client's think time
	quitAt  int           // the offender is a random client that quits at this turn
	lobby   bool
	reason  string
	actions int    // expected actions of the game, -1 = any
	detail  string // the result's detail contains it ("" = any)
	script  offender
}

var advCases = []advCase{
	{name: "garbage", first: true, reason: ReasonProtocol, actions: 1, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		io.WriteString(c, "garbage ]]] {{{\n")
		return advLoses(r)
	}},
	{name: "invalid_utf8", first: true, reason: ReasonProtocol, actions: 1, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		io.WriteString(c, "\xff\xfe\xfd\x80\n")
		return advLoses(r)
	}},
	{name: "invalid_utf8_ship", first: true, reason: ReasonProtocol, actions: 1, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		io.WriteString(c, "{\"move\":{\"ship\":\"\xff\",\"to\":[0,1]}}\n")
		return advLoses(r)
	}},
	{name: "float_placement", first: true, reason: ReasonProtocol, actions: 0, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advExpect(r, greet); err != nil {
			return err
		}
		io.WriteString(c, `{"w":[0,1.5],"c":[2,0],"s":[4,0]}`+"\n")
		return advExpect(r, protocol.YouLose)
	}},
	{name: "huge_int_placement", reason: ReasonPlacement, actions: 0, detail: "at [0,99999999999999999999] is off", script: func(c net.Conn, r *bufio.Reader) error {
		if err := advExpect(r, greet); err != nil {
			return err
		}
		io.WriteString(c, `{"w":[0,99999999999999999999],"c":[2,0],"s":[4,0]}`+"\n")
		return advExpect(r, protocol.YouLose)
	}},
	// Valid JSON nested 20,000 deep under an unknown key is tolerated like
	// any unknown key: the game goes on; the garbage on the next turn loses.
	{name: "deep_unknown_key", first: true, reason: ReasonProtocol, actions: 3, detail: "garbage", script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		io.WriteString(c, `{"attack":{"to":[1,1]},"x":`+strings.Repeat("[", 20000)+strings.Repeat("]", 20000)+"}\n")
		for _, want := range []string{"{*", protocol.Waiting, "{*", protocol.YourTurn} {
			if err := advExpect(r, want); err != nil {
				return err
			}
		}
		io.WriteString(c, "garbage\n")
		return advLoses(r)
	}},
	{name: "duplicate_cell", reason: ReasonPlacement, actions: 0, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advExpect(r, greet); err != nil {
			return err
		}
		io.WriteString(c, `{"w":[2,2],"c":[2,2],"s":[4,0]}`+"\n")
		return advExpect(r, protocol.YouLose)
	}},
	{name: "huge_line", first: true, reason: ReasonLineTooLong, actions: 1, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		return streamHuge(c)
	}},
	{name: "silent_handshake", reason: ReasonTimeout, actions: 0, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advExpect(r, greet); err != nil {
			return err
		}
		return advExpect(r, protocol.YouLose) // after the handshake timeout
	}},
	{name: "silent_turn", first: true, reason: ReasonTimeout, actions: 1, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		return advLoses(r) // after the action timeout
	}},
	{name: "out_of_turn", think: 300 * time.Millisecond, reason: ReasonOutOfTurn, actions: 0, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advPlace(c, r); err != nil {
			return err
		}
		if err := advExpect(r, protocol.Waiting); err != nil {
			return err
		}
		io.WriteString(c, `{"attack":{"to":[0,0]}}`+"\n")
		return advLoses(r)
	}},
	{name: "two_actions_one_write", first: true, reason: ReasonOutOfTurn, actions: 1, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		// Attacking its own ship's cell is always legal.
		io.WriteString(c, `{"attack":{"to":[0,0]}}`+"\n"+`{"attack":{"to":[2,0]}}`+"\n")
		if err := advExpect(r, `{"result":{"attacked":*`); err != nil {
			return err
		}
		if err := advExpect(r, protocol.Waiting); err != nil {
			return err
		}
		return advLoses(r)
	}},
	{name: "disconnect_after_greeting", reason: ReasonDisconnect, actions: 0, script: func(c net.Conn, r *bufio.Reader) error {
		return advExpect(r, greet)
	}},
	{name: "disconnect_after_placement", first: true, reason: ReasonDisconnect, actions: -1, script: func(c net.Conn, r *bufio.Reader) error {
		// The placement goes before the greeting (kept by the lobby); the
		// client leaves once its game has started.
		if _, err := io.WriteString(c, p1Place+"\n"); err != nil {
			return err
		}
		return advExpect(r, greet)
	}},
	{name: "disconnect_your_turn", first: true, reason: ReasonDisconnect, actions: 1, script: advTurn},
	{name: "disconnect_mid_line", first: true, reason: ReasonProtocol, actions: 1, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advTurn(c, r); err != nil {
			return err
		}
		_, err := io.WriteString(c, `{"attack":{"to"`)
		return err
	}},
	{name: "disconnect_waiting", think: 300 * time.Millisecond, reason: ReasonDisconnect, actions: 0, script: func(c net.Conn, r *bufio.Reader) error {
		if err := advPlace(c, r); err != nil {
			return err
		}
		return advExpect(r, protocol.Waiting)
	}},
	{name: "disconnect_midgame", first: true, reason: ReasonDisconnect, actions: -1, quitAt: 4},
	{name: "lobby_disconnect", lobby: true, reason: ReasonDisconnect, script: func(c net.Conn, r *bufio.Reader) error {
		return nil
	}},
	{name: "lobby_flood", lobby: true, reason: ReasonOutOfTurn, script: func(c net.Conn, r *bufio.Reader) error {
		io.WriteString(c, "one\ntwo\nthree\n")
		_, _ = io.Copy(io.Discard, r) // until the server closes
		return nil
	}},
	{name: "lobby_huge_line", lobby: true, reason: ReasonLineTooLong, script: func(c net.Conn, r *bufio.Reader) error {
		return streamHuge(c)
	}},
}

// logRecords parses the JSON log.
func logRecords(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		out = append(out, m)
	}
	return out
}

// heapInUse is the heap in use after a garbage collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestAdversarialClients runs every kind of misbehaving client at once, each
// against an honest client on a listener of its own, while honest games run
// on another listener and a storm of connections comes and goes on a third.
// Every offender loses (or is dropped before its game), its opponent is told
// it won, every honest game finishes normally, the log names each reason,
// the heap stays bounded (the 1 GiB lines are never buffered) and no
// goroutine is left behind.
func TestAdversarialClients(t *testing.T) {
	checkLeaks(t)
	// The heap's bounds below assume the collector's default pacing,
	// whatever GOGC the tests run with (.ci/run sets 400).
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	cfg := testConfig(t)
	cfg.Listeners = []ListenerConfig{
		{Name: "bg", Address: "127.0.0.1:0", Opponent: "random"},
		{Name: "bgpair1", Address: "127.0.0.1:0"},
		{Name: "bgpair3", Address: "127.0.0.1:0"},
		{Name: "storm", Address: "127.0.0.1:0"},
	}
	for _, tc := range advCases {
		cfg.Listeners = append(cfg.Listeners, ListenerConfig{Name: tc.name, Address: "127.0.0.1:0"})
	}
	cfg.Limits.HandshakeTimeout = advTimeout
	cfg.Limits.ActionTimeout = advTimeout
	cfg.Limits.MaxLineBytes = 64 << 10 // room for the 20,000-deep line
	cfg.Limits.MaxConnections = 4096
	cfg.Limits.MaxConnectionsPerIP = 4096
	ts := startServer(t, cfg)
	addrOf := func(name string) string {
		for i, l := range cfg.Listeners {
			if l.Name == name {
				return ts.addr(i)
			}
		}
		t.Fatalf("no listener %s", name)
		return ""
	}
	rules := submarine.DefaultRules()
	heap0 := heapInUse()

	// The heap's peak while everything runs.
	var peak atomic.Uint64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	var stopOnce sync.Once
	stopSampler := func() {
		stopOnce.Do(func() { close(stopSampling) })
		<-sampled
	}
	defer stopSampler()
	go func() {
		defer close(sampled)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stopSampling:
				return
			case <-tick.C:
			}
		}
	}()

	// Honest games until the cases are done: against the house AI on "bg",
	// and pairs of honest clients on "bgpair1" and "bgpair3" (one pair at
	// a time on each, so that the two clients of a pair play each other).
	var bgGames atomic.Int64
	stopBG := make(chan struct{})
	bgErrs := make(chan error, 4)
	var bg sync.WaitGroup
	for i := range 4 {
		bg.Go(func() {
			for seed := uint64(i) << 32; ; seed += 2 {
				select {
				case <-stopBG:
					bgErrs <- nil
					return
				default:
				}
				var err error
				if i%2 == 0 {
					var ends []protocol.End
					ends, err = randomClient(addrOf("bg"), protocol.Classic, rules, seed, "")
					if err == nil && len(ends) != 1 {
						err = fmt.Errorf("ends %v", ends)
					}
				} else {
					err = playPair(addrOf(fmt.Sprintf("bgpair%d", i)), rules, seed)
				}
				if err != nil {
					bgErrs <- fmt.Errorf("background game: %w", err)
					return
				}
				bgGames.Add(1)
			}
		})
	}

	// A storm of connections that come and go on "storm".
	var storm sync.WaitGroup
	stormN := 300
	if testing.Short() {
		stormN = 100
	}
	var stormNext atomic.Int64
	for range 4 {
		storm.Go(func() {
			for k := stormNext.Add(1); k <= int64(stormN); k = stormNext.Add(1) {
				c, err := net.Dial("tcp", addrOf("storm"))
				if err != nil {
					continue
				}
				switch k % 3 {
				case 1:
					io.WriteString(c, `{"w":[0,0]`) // half a placement
				case 2:
					bufio.NewReader(c).ReadString('\n') // wait for a greeting (or the close)
				}
				c.Close()
			}
		})
	}

	// The cases, all at once.
	offenderAddr := make([]string, len(advCases))
	errs := make([]error, len(advCases))
	var cases sync.WaitGroup
	for i, tc := range advCases {
		addr := addrOf(tc.name)
		cases.Go(func() { errs[i] = runAdvCase(tc, addr, rules, &offenderAddr[i]) })
	}
	cases.Wait()
	storm.Wait()
	close(stopBG)
	bg.Wait()
	for range 4 {
		require.NoError(t, <-bgErrs)
	}
	for i, err := range errs {
		require.NoError(t, err, advCases[i].name)
	}
	require.Eventually(t, func() bool { return ts.metrics.connsOpen.Load() == 0 }, 10*time.Second, 5*time.Millisecond, "every connection closed")
	stopSampler()

	rs := ts.waitResults(t, int(bgGames.Load()))
	logs := logRecords(t, ts.logs.String())
	byListener := map[string][]Result{}
	for _, r := range rs {
		byListener[r.Listener] = append(byListener[r.Listener], r)
	}
	// Honest games: all finished by the rules.
	honest := append(append(byListener["bg"], byListener["bgpair1"]...), byListener["bgpair3"]...)
	require.Len(t, honest, int(bgGames.Load()))
	for _, r := range honest {
		require.Contains(t, []string{ReasonSunk, ReasonDrawLimit}, r.Reason, "background game %s", r.Game)
		verifyReplay(t, ts, r)
	}
	require.Positive(t, bgGames.Load())
	// Storm games: every one is a forfeit.
	for _, r := range byListener["storm"] {
		require.NotEmpty(t, r.Forfeits, "storm game %s: %s", r.Game, r.Reason)
		verifyReplay(t, ts, r)
	}
	for i, tc := range advCases {
		t.Run(tc.name, func(t *testing.T) {
			got := byListener[tc.name]
			if tc.lobby {
				require.Empty(t, got, "no game starts")
				require.True(t, hasLog(logs, func(m map[string]any) bool {
					return m["peer"] == offenderAddr[i] && (m["reason"] == tc.reason ||
						tc.reason == ReasonDisconnect && m["msg"] == "client left while waiting for an opponent")
				}), "the log names why %s was dropped", offenderAddr[i])
				return
			}
			require.Len(t, got, 1)
			r := got[0]
			seat := 1
			if tc.first {
				seat = 0
			}
			require.Equal(t, offenderAddr[i], r.Players[seat].Addr)
			require.Equal(t, OutcomeWin, r.Outcome)
			require.Equal(t, 1-seat, r.Winner, "the honest client wins")
			require.Equal(t, tc.reason, r.Reason, r.Detail)
			require.Equal(t, []int{seat}, r.Forfeits)
			if tc.actions >= 0 {
				require.Equal(t, tc.actions, r.Actions, r.Detail)
			}
			require.Contains(t, r.Detail, tc.detail)
			require.NotContains(t, r.Detail, "-2147483648", "a huge integer is shown as sent")
			verifyReplay(t, ts, r)
			require.True(t, hasLog(logs, func(m map[string]any) bool {
				return m["msg"] == "forfeit" && m["game"] == r.Game && m["reason"] == tc.reason && m["peer"] == offenderAddr[i]
			}), "the log names the forfeit of game %s", r.Game)
		})
	}

	heap1 := heapInUse()
	t.Logf("heap in use: %d KiB before, %d KiB after, peak %d KiB; %d background games, %d storm games",
		heap0>>10, heap1>>10, peak.Load()>>10, bgGames.Load(), len(byListener["storm"]))
	require.Less(t, int64(heap1)-int64(heap0), int64(16<<20), "heap growth")
	require.Less(t, int64(peak.Load())-int64(heap0), int64(96<<20), "heap peak (a 1 GiB line must not be buffered)")
}

// runAdvCase plays one case: the offender and, unless it is a lobby case,
// an honest random client that must win. The first to connect is seat 0:
// the second dials once the first is connected (the listener accepts in
// order).
func runAdvCase(tc advCase, addr string, rules *submarine.Rules, offAddr *string) error {
	runOffender := func(connected func()) error {
		if tc.quitAt > 0 {
			_, err := playRandom(addr, protocol.Classic, rules, 99, "", clientOpts{quitAfter: tc.quitAt, conn: func(c net.Conn) {
				*offAddr = c.LocalAddr().String()
				connected()
			}})
			if !errors.Is(err, errQuit) {
				return fmt.Errorf("offender: %w", err)
			}
			return nil
		}
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return err
		}
		defer c.Close()
		*offAddr = c.LocalAddr().String()
		connected()
		_ = c.SetDeadline(time.Now().Add(30 * time.Second))
		if err := tc.script(c, bufio.NewReader(c)); err != nil {
			return fmt.Errorf("offender: %w", err)
		}
		return nil
	}
	if tc.lobby {
		return runOffender(func() {})
	}
	honest := func(connected func()) error {
		ends, err := playRandom(addr, protocol.Classic, rules, 7, "", clientOpts{think: tc.think, conn: func(net.Conn) { connected() }})
		if err != nil {
			return fmt.Errorf("honest client: %w", err)
		}
		if len(ends) != 1 || ends[0] != protocol.EndWin {
			return fmt.Errorf("honest client: ends %v, want a win", ends)
		}
		return nil
	}
	first, second := honest, runOffender
	if tc.first {
		first, second = runOffender, honest
	}
	errc := make(chan error, 2)
	ready := make(chan struct{})
	var once sync.Once
	go func() {
		err := first(func() { once.Do(func() { close(ready) }) })
		once.Do(func() { close(ready) })
		errc <- err
	}()
	<-ready
	go func() { errc <- second(func() {}) }()
	return errors.Join(<-errc, <-errc)
}

// playPair plays one game between two honest random clients on a pair
// listener and checks that one wins and the other loses (or both draw).
func playPair(addr string, rules *submarine.Rules, seed uint64) error {
	var ends [2][]protocol.End
	var errs [2]error
	ready := make(chan struct{})
	var wg sync.WaitGroup
	for p := range 2 {
		wg.Go(func() {
			if p == 1 {
				<-ready
			}
			var once sync.Once
			ends[p], errs[p] = playRandom(addr, protocol.Classic, rules, seed+uint64(p), "", clientOpts{conn: func(net.Conn) {
				if p == 0 {
					once.Do(func() { close(ready) })
				}
			}})
		})
	}
	wg.Wait()
	if err := errors.Join(errs[0], errs[1]); err != nil {
		return err
	}
	if len(ends[0]) != 1 || len(ends[1]) != 1 {
		return fmt.Errorf("ends %v", ends)
	}
	if e := [2]protocol.End{ends[0][0], ends[1][0]}; e != [2]protocol.End{protocol.EndWin, protocol.EndLose} &&
		e != [2]protocol.End{protocol.EndLose, protocol.EndWin} && e != [2]protocol.End{protocol.EndDraw, protocol.EndDraw} {
		return fmt.Errorf("ends %v", e)
	}
	return nil
}

func hasLog(logs []map[string]any, f func(map[string]any) bool) bool {
	for _, m := range logs {
		if f(m) {
			return true
		}
	}
	return false
}
