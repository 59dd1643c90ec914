package loadtest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of the CPU times in /proc/PID/stat (USER_HZ,
// which Linux fixes at 100 per second for user space on every
// architecture Go supports).
const clockTick = 10 * time.Millisecond

// ProcessCPU returns the CPU time (user plus system, all threads) that
// process pid has used so far, read from /proc/PID/stat (Linux), to the
// clock tick (10 ms). Run reads it before and after the load when
// Options.ServerPID is set.
func ProcessCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("%w: server CPU: %w", ErrLoad, err)
	}
	return parseProcStat(b)
}

// parseProcStat reads utime and stime (fields 14 and 15) of a
// /proc/PID/stat line. The command name (field 2) is in parentheses and
// may hold spaces or parentheses itself, so the fields are counted from
// the last ')'.
func parseProcStat(b []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("%w: server CPU: no ')' in /proc stat line", ErrLoad)
	}
	f := bytes.Fields(b[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, fmt.Errorf("%w: server CPU: %d fields after the command name, want at least 13", ErrLoad, len(f))
	}
	var ticks int64
	for _, s := range f[11:13] { // utime, stime
		n, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%w: server CPU: bad tick count %q", ErrLoad, s)
		}
		ticks += n
	}
	return time.Duration(ticks) * clockTick, nil
}
