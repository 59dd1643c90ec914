package web_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/web"
)

// startTable starts a game against the house AI from client address addr
// through h and returns its id and the session cookie it set.
func startTable(t *testing.T, h http.Handler, addr string) (int, string, *http.Cookie) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/play", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr + ":4000"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := rec.Result()
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, string(body), nil
	}
	var started struct{ ID, Page string }
	require.NoError(t, json.Unmarshal(body, &started))
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	return resp.StatusCode, started.ID, cookies[0]
}

// TestWebSessions: every private route of a table (its page, its events
// with the person's fleet, its actions) is refused (403) without the
// table's session cookie, with a wrong one and with another table's, and
// works with it; the ids are unguessable, the cookie HttpOnly, SameSite
// Strict and scoped to the table, and the list links only public views.
func TestWebSessions(t *testing.T) {
	hub := web.NewHub("", web.Play(web.PlayOptions{House: "random", Timeout: 3 * time.Second, MaxPerAddr: 2}))
	site := httptest.NewServer(hub.Handler())
	defer site.Close()
	defer func() { // the tables time out: no game outlives the test
		require.Eventually(t, func() bool { return hub.Playing() == 0 }, 20*time.Second, 10*time.Millisecond)
	}()
	h := hub.Handler()
	code, id, mine := startTable(t, h, "127.0.0.1")
	require.Equal(t, http.StatusOK, code, id)
	code, other, theirs := startTable(t, h, "127.0.0.1")
	require.Equal(t, http.StatusOK, code, other)

	require.Regexp(t, `^web-[A-Z2-7]{26}$`, id, "130 random bits")
	require.NotEqual(t, id, other)
	require.NotEqual(t, mine.Value, theirs.Value)
	require.Regexp(t, `^[A-Z2-7]{26}$`, mine.Value)
	require.Equal(t, "kaisen-seat", mine.Name)
	require.Equal(t, "/play/"+id, mine.Path)
	require.True(t, mine.HttpOnly)
	require.Equal(t, http.SameSiteStrictMode, mine.SameSite)
	require.False(t, mine.Secure, "plain HTTP")

	type route struct {
		name, method, path, body string
		ok                       int // the status with the right cookie
	}
	routes := []route{
		{"page", http.MethodGet, "/play/" + id, "", http.StatusOK},
		{"events", http.MethodGet, "/play/" + id + "/events", "", http.StatusOK},
		{"act", http.MethodPost, "/play/" + id + "/act", `{"kind":"move","ship":9,"to":0}`, http.StatusBadRequest}, // illegal, but heard
	}
	cookies := []struct {
		name   string
		cookie *http.Cookie
		want   int // 0: the route's ok
	}{
		{"no cookie", nil, http.StatusForbidden},
		{"wrong secret", &http.Cookie{Name: "kaisen-seat", Value: strings.Repeat("A", 26)}, http.StatusForbidden},
		{"empty secret", &http.Cookie{Name: "kaisen-seat", Value: ""}, http.StatusForbidden},
		{"other table's secret", &http.Cookie{Name: "kaisen-seat", Value: theirs.Value}, http.StatusForbidden},
		{"secret under another name", &http.Cookie{Name: "seat", Value: mine.Value}, http.StatusForbidden},
		{"the table's secret", &http.Cookie{Name: "kaisen-seat", Value: mine.Value}, 0},
	}
	for _, rt := range routes {
		for _, c := range cookies {
			t.Run(rt.name+"/"+c.name, func(t *testing.T) {
				req, err := http.NewRequest(rt.method, site.URL+rt.path, strings.NewReader(rt.body))
				require.NoError(t, err)
				req.Header.Set("Content-Type", "application/json")
				if c.cookie != nil {
					req.AddCookie(c.cookie)
				}
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer resp.Body.Close()
				want := c.want
				if want == 0 {
					want = rt.ok
				}
				require.Equal(t, want, resp.StatusCode)
				if want == http.StatusForbidden {
					body, _ := io.ReadAll(resp.Body)
					require.Contains(t, string(body), "session cookie is missing or wrong")
					require.NotContains(t, string(body), `"fleet"`)
					return
				}
				if rt.name == "events" { // the person's state, with their fleet
					sc := bufio.NewScanner(resp.Body)
					require.True(t, sc.Scan())
					require.Equal(t, "event: state", sc.Text())
					require.True(t, sc.Scan())
					require.Contains(t, sc.Text(), `"fleet":[`)
				}
			})
		}
	}

	// An unknown table is 404 with or without a cookie.
	resp, err := http.Get(site.URL + "/play/web-1/events")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)

	// The list shows the tables as public views only.
	resp, err = http.Get(site.URL + "/")
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Contains(t, string(page), `href="/games/`+id+`"`)
	require.NotRegexp(t, regexp.MustCompile(`href="/play/`), string(page))
	// The public view never carries the person's fleet.
	req, err := http.NewRequest(http.MethodGet, site.URL+"/games/"+id+"/events", nil)
	require.NoError(t, err)
	req.AddCookie(mine) // even for the person
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	sc := bufio.NewScanner(resp.Body)
	require.True(t, sc.Scan())
	require.Equal(t, "event: info", sc.Text())
	require.True(t, sc.Scan())
	require.NotContains(t, sc.Text(), `"fleet"`)
	resp.Body.Close()
}

// TestWebPlayCaps: past MaxPerAddr games from one address POST /play is
// 429 with the reason, past MaxGames in all 503; a table that ends frees
// its address's slot.
func TestWebPlayCaps(t *testing.T) {
	hub := web.NewHub("", web.Play(web.PlayOptions{House: "random", Timeout: 400 * time.Millisecond, MaxPerAddr: 2, MaxGames: 3}))
	h := hub.Handler()
	for _, tt := range []struct {
		addr string
		want int
		msg  string
	}{
		{"10.0.0.1", http.StatusOK, ""},
		{"10.0.0.1", http.StatusOK, ""},
		{"10.0.0.1", http.StatusTooManyRequests, "2 running from 10.0.0.1 (at most 2), finish one first"},
		{"10.0.0.2", http.StatusOK, ""},
		{"10.0.0.3", http.StatusServiceUnavailable, "3 are running, try again later"},
	} {
		code, body, _ := startTable(t, h, tt.addr)
		require.Equal(t, tt.want, code, "%s: %s", tt.addr, body)
		if tt.msg != "" {
			require.Contains(t, body, tt.msg)
		}
	}
	// Nobody plays: the games time out and free their slots.
	require.Eventually(t, func() bool { return hub.Playing() == 0 }, 10*time.Second, 10*time.Millisecond)
	code, body, _ := startTable(t, h, "10.0.0.1")
	require.Equal(t, http.StatusOK, code, body)
	require.Eventually(t, func() bool { return hub.Playing() == 0 }, 10*time.Second, 10*time.Millisecond)
}

// TestWebSessionCookieSecure: over TLS the session cookie is also Secure.
func TestWebSessionCookieSecure(t *testing.T) {
	hub := web.NewHub("", web.Play(web.PlayOptions{House: "random", Timeout: 300 * time.Millisecond}))
	site := httptest.NewTLSServer(hub.Handler())
	defer site.Close()
	resp, err := site.Client().Post(site.URL+"/play", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, resp.Cookies(), 1)
	c := resp.Cookies()[0]
	require.True(t, c.Secure)
	require.True(t, c.HttpOnly)
	require.Equal(t, http.SameSiteStrictMode, c.SameSite)
	require.Eventually(t, func() bool { return hub.Playing() == 0 }, 10*time.Second, 10*time.Millisecond)
}
