// watchers keeps N spectators on the running games of a kaisen serve --web
// page: each lists the running games, follows one to its end over SSE, and
// starts again. It prints the number of move events received.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("web", "http://127.0.0.1:18089", "spectator base URL")
	n := flag.Int("n", 200, "watchers")
	d := flag.Duration("for", 30*time.Second, "how long")
	flag.Parse()
	re := regexp.MustCompile(`<table id="running">[\s\S]*?</table>`)
	link := regexp.MustCompile(`href="/games/([^"/]+)"`)
	var moves, streams atomic.Int64
	stop := time.Now().Add(*d)
	var wg sync.WaitGroup
	for i := range *n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for time.Now().Before(stop) {
				resp, err := http.Get(*base + "/")
				if err != nil {
					time.Sleep(50 * time.Millisecond)
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				ids := link.FindAllSubmatch(re.Find(b), -1)
				if len(ids) == 0 {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				id := string(ids[rng.IntN(len(ids))][1])
				es, err := http.Get(*base + "/games/" + id + "/events")
				if err != nil {
					continue
				}
				streams.Add(1)
				sc := bufio.NewScanner(es.Body)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "event: move") {
						moves.Add(1)
					}
				}
				es.Body.Close()
			}
		}()
	}
	wg.Wait()
	fmt.Printf("watchers %d: %d streams, %d move events\n", *n, streams.Load(), moves.Load())
}
