package extern

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// proc is one running bot: a shell and whatever it starts, in a process
// group of their own.
type proc struct {
	killOnce sync.Once
	cmd      *exec.Cmd
	out      *os.File      // the bot's stdout and stderr
	done     chan struct{} // closed when the shell has exited and been reaped
	err      error         // the shell's exit status; read after done
}

// shell is the shell that runs bot commands.
const shell = "/bin/sh"

// startProc starts argv in a new process group, its output (stdout and
// stderr) going to out and its input empty.
func startProc(argv []string, out *os.File) (*proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = out, out // files: no copying goroutine to outlive the group
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("extern: start: %w", err)
	}
	p := &proc{cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// kill ends the whole process group and waits for the shell. The group
// outlives its leader while any member is alive (a forked child), and its
// id is not reused while it does, so this reaches every process the bot
// started that did not leave the group on purpose.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		killGroup(p.cmd.Process)
		<-p.done
		groupGone(p.cmd.Process)
	})
}

// status says how the shell ended, for a forfeit reason.
func (p *proc) status() string {
	var ee *exec.ExitError
	switch {
	case p.err == nil:
		return "exit status 0"
	case errors.As(p.err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by signal " + ws.Signal().String()
		}
		return ee.Error()
	default:
		return p.err.Error()
	}
}

// exitGrace is how long a bot may take to exit by itself once its game is
// recorded (it reads its end lines first) before its group is killed.
const exitGrace = 500 * time.Millisecond

// tailBytes is how much of the end of a bot's output a forfeit reason
// quotes (its last non-empty line within them).
const tailBytes = 512

// lastLine returns the last non-empty line of the file's last tailBytes
// bytes, "" when there is none.
func lastLine(f *os.File) string {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return ""
	}
	off := max(st.Size()-tailBytes, 0)
	b := make([]byte, st.Size()-off)
	n, err := f.ReadAt(b, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	b = bytes.TrimRight(b[:n], "\r\n\t ")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return string(bytes.ToValidUTF8(bytes.TrimSpace(b), []byte("?")))
}
