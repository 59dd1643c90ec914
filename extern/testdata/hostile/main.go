// Command hostile is a misbehaving bot for package extern's tests:
//
//	hostile MODE [HOST PORT]
//
// MODE is exit (leaves before connecting), sleep (sleeps an hour: a
// child), crash, hang, flood, garbage, memory (allocates and touches 1 GiB)
// or fork (starts a sleeping child of itself, then hangs).
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"time"
)

func main() {
	mode := os.Args[1]
	switch mode {
	case "exit":
		fmt.Fprintln(os.Stderr, "hostile: leaving at once")
		os.Exit(0)
	case "sleep":
		time.Sleep(time.Hour)
		return
	}
	c, err := net.Dial("tcp", net.JoinHostPort(os.Args[2], os.Args[3]))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
	r := bufio.NewReader(c)
	if _, err := r.ReadString('\n'); err != nil { // the greeting
		os.Exit(1)
	}
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "hostile: crashing now")
		os.Exit(3)
	case "hang":
		time.Sleep(time.Hour)
	case "flood":
		line := make([]byte, 1<<16)
		for i := range line {
			line[i] = 'x'
		}
		for {
			if _, err := c.Write(line); err != nil {
				return
			}
		}
	case "garbage":
		fmt.Fprintln(c, "this is not JSON")
		_, _ = r.ReadString(0) // until the server closes
	case "memory":
		b := make([]byte, 1<<30)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Println(len(b))
	case "fork":
		child := exec.Command(os.Args[0], "sleep")
		if err := child.Start(); err != nil {
			os.Exit(1)
		}
		time.Sleep(time.Hour)
	default:
		fmt.Fprintln(os.Stderr, "hostile: unknown mode", mode)
		os.Exit(2)
	}
}
