// Package webtest plays browser play (internal/web, kaisen serve --web
// --web-play) through its HTTP API in tests, as the page does, for any
// game: a Person starts a table, reads their state from its events stream
// and posts one of its actions on each of their turns, chosen from the
// state with a seeded stream; a Recorder keeps what the hub records.
package webtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/server"
)

// Recorder is a web.Recorder that keeps the results and replays the hub
// hands it, as the server's Record stores them (the replay named after
// the game). It is safe for concurrent use.
type Recorder struct {
	mu      sync.Mutex
	results []server.Result
	replays map[string][]byte
}

var _ web.Recorder = (*Recorder)(nil)

// Record implements web.Recorder.
func (m *Recorder) Record(res *server.Result, rp []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if rp != nil {
		if m.replays == nil {
			m.replays = map[string][]byte{}
		}
		res.Replay = res.Game + ".jsonl"
		m.replays[res.Replay] = append([]byte(nil), rp...)
	}
	m.results = append(m.results, *res)
}

// Results are the results recorded so far, in order.
func (m *Recorder) Results() []server.Result {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]server.Result(nil), m.results...)
}

// Replay is the replay recorded as name (nil: none).
func (m *Recorder) Replay(name string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.replays[name]
}

// Person is a person at one table, through the HTTP API.
type Person struct {
	t      testing.TB
	site   string
	ID     string // the table's id (the spectators' /games/ID)
	cookie *http.Cookie
	rng    *rand.Rand
	// Buttons counts the actions played that point at no cell (the
	// page's buttons: an answer, a game without game.Aimer).
	Buttons int
}

// Start starts a table of game name on site (POST /play {"game": name});
// rng draws the person's choices.
func Start(t testing.TB, site, name string, rng *rand.Rand) *Person {
	t.Helper()
	body, err := json.Marshal(web.NewGame{Game: name})
	require.NoError(t, err)
	resp, err := http.Post(site+"/play", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(msg))
	var started struct{ ID, Page string }
	require.NoError(t, json.Unmarshal(msg, &started))
	require.Equal(t, "/play/"+started.ID, started.Page)
	require.Len(t, resp.Cookies(), 1, "the session cookie")
	return &Person{t: t, site: site, ID: started.ID, cookie: resp.Cookies()[0], rng: rng}
}

// Post sends the person's action (its label) and returns the status and
// the body of the answer.
func (p *Person) Post(label string) (int, string) {
	body, err := json.Marshal(web.Act{Action: label})
	require.NoError(p.t, err)
	req, err := http.NewRequest(http.MethodPost, p.site+"/play/"+p.ID+"/act", bytes.NewReader(body))
	require.NoError(p.t, err)
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(p.cookie)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(p.t, err)
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(msg)
}

// choose picks one of the state's actions: mostly an attack on a cell of
// the house's waters not marked yet, so that games end soon.
func (p *Person) choose(s *web.PlayState) web.Choice {
	var fresh []web.Choice
	for _, c := range s.Actions {
		if _, marked := s.Shots[c.At]; c.At >= 0 && !marked {
			fresh = append(fresh, c)
		}
	}
	if len(fresh) > 0 && p.rng.IntN(10) > 0 {
		return fresh[p.rng.IntN(len(fresh))]
	}
	return s.Actions[p.rng.IntN(len(s.Actions))]
}

// Play plays the table to its end from its events stream: on each of the
// person's turns one of its actions, chosen from the state (the first
// turn also sends an action that is none of them, which is refused, 400).
// Every state is decoded strictly: a field that is not PlayState's fails.
// It returns every state received, the last one over.
func (p *Person) Play() []web.PlayState {
	t := p.t
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, p.site+"/play/"+p.ID+"/events", nil)
	require.NoError(t, err)
	req.AddCookie(p.cookie)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<22)
	var states []web.PlayState
	acted := -1
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var s web.PlayState
		dec := json.NewDecoder(strings.NewReader(data))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&s))
		states = append(states, s)
		if s.Over {
			return states
		}
		if !s.Turn || s.Seq == acted {
			continue
		}
		require.NotEmpty(t, s.Actions, "a turn has legal actions")
		if acted < 0 {
			code, msg := p.Post("no such action")
			require.Equal(t, http.StatusBadRequest, code, msg)
		}
		c := p.choose(&s)
		if c.At < 0 && c.From < 0 {
			p.Buttons++
		}
		code, msg := p.Post(c.Label)
		require.Equal(t, http.StatusAccepted, code, msg)
		acted = s.Seq
	}
	require.NoError(t, sc.Err())
	t.Fatal("the stream ended before the game")
	return nil
}
