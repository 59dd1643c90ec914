// watchers keeps N spectators on the running games of a kaisen serve --web
// page: each lists the running games (with the list's ETag, as a browser
// does; again 250 ms later when none is running),
// follows one to its end over SSE, and starts again. With -loopers
// M, M more clients fetch GET / in a loop as fast as they are answered
// (no ETag). With -spread, each client connects from its own loopback
// address (127.0.1.1, 127.0.1.2, ...), as spectators on other machines
// would, so that the per-address limits of the web port apply to each
// alone. It stops after -for and prints what it was
// served (also on SIGINT or SIGTERM).
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	base := flag.String("web", "http://127.0.0.1:18089", "spectator base URL")
	n := flag.Int("n", 200, "watchers")
	loopers := flag.Int("loopers", 0, "clients looping GET / without an ETag")
	spread := flag.Bool("spread", false, "each client from its own loopback address")
	d := flag.Duration("for", 30*time.Second, "how long")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *d)
	defer cancel()

	link := regexp.MustCompile(`href="/games/([^"/]+)"`)
	var (
		moves, streams, refused, open atomic.Int64
		lists, notModified, looped    atomic.Int64
		tooMany, errs                 atomic.Int64
		openSum, samples, peak        atomic.Int64
	)
	client := func(i int) *http.Client {
		dial := &net.Dialer{Timeout: 5 * time.Second}
		if *spread {
			dial.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, 0, byte(1+i/250), byte(1+i%250))}
		}
		return &http.Client{Transport: &http.Transport{DialContext: dial.DialContext, MaxIdleConnsPerHost: 2, DisableCompression: true}}
	}
	get := func(c *http.Client, path, etag string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, *base+path, nil)
		if err != nil {
			return nil, err
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		return c.Do(req)
	}
	pause := func(t time.Duration) {
		select {
		case <-ctx.Done():
		case <-time.After(t):
		}
	}
	var wg sync.WaitGroup
	for i := range *n {
		wg.Go(func() {
			c := client(i)
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			var page []byte
			var etag string
			for ctx.Err() == nil {
				resp, err := get(c, "/", etag)
				if err != nil {
					errs.Add(1)
					pause(50 * time.Millisecond)
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				lists.Add(1)
				switch resp.StatusCode {
				case http.StatusOK:
					page, etag = b, resp.Header.Get("ETag")
				case http.StatusNotModified:
					notModified.Add(1)
				default:
					tooMany.Add(1)
					pause(time.Second)
					continue
				}
				running := page
				if k := bytes.Index(running, []byte(`<table id="running">`)); k >= 0 {
					running = running[k:]
					if e := bytes.Index(running, []byte(`</table>`)); e >= 0 {
						running = running[:e]
					}
				} else {
					running = nil
				}
				ids := link.FindAllSubmatch(running, -1)
				if len(ids) == 0 { // nothing to watch yet
					pause(250 * time.Millisecond)
					continue
				}
				id := string(ids[rng.IntN(len(ids))][1])
				es, err := get(c, "/games/"+id+"/events", "")
				if err != nil {
					if errs.Add(1) <= 3 && ctx.Err() == nil {
						fmt.Fprintln(os.Stderr, "stream:", err)
					}
					continue
				}
				if es.StatusCode != http.StatusOK {
					_, _ = io.Copy(io.Discard, es.Body)
					es.Body.Close()
					refused.Add(1)
					pause(time.Second)
					continue
				}
				streams.Add(1)
				open.Add(1)
				sc := bufio.NewScanner(es.Body)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					if bytes.HasPrefix(sc.Bytes(), []byte("event: move")) {
						moves.Add(1)
					}
				}
				open.Add(-1)
				es.Body.Close()
			}
		})
	}
	for j := range *loopers {
		wg.Go(func() {
			c := client(250*8 + j)
			for ctx.Err() == nil {
				resp, err := get(c, "/", "")
				if err != nil {
					errs.Add(1)
					pause(50 * time.Millisecond)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				looped.Add(1)
				if resp.StatusCode != http.StatusOK {
					tooMany.Add(1)
				}
			}
		})
	}
	wg.Go(func() { // how many streams are open, every 100 ms
		for ctx.Err() == nil {
			pause(100 * time.Millisecond)
			o := open.Load()
			openSum.Add(o)
			samples.Add(1)
			if o > peak.Load() {
				peak.Store(o)
			}
		}
	})
	<-ctx.Done()
	atStop := open.Load()
	wg.Wait()
	fmt.Printf("watchers %d (loopers %d, spread %v, %v): %d streams (open: mean %.0f, peak %d, %d at the stop), %d move events, %d lists (%d not modified), %d looped GET /, %d refused streams, %d 429/503 pages, %d errors\n",
		*n, *loopers, *spread, *d, streams.Load(), float64(openSum.Load())/float64(max(samples.Load(), 1)), peak.Load(), atStop, moves.Load(),
		lists.Load(), notModified.Load(), looped.Load(), refused.Load(), tooMany.Load(), errs.Load())
}
