package extern

import "syscall"

// sysProcAttr puts a bot in a process group of its own; on Linux its
// shell (or the program itself) is also killed if Kaisen dies without
// cleaning up (SIGKILL from outside): the parent-death signal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
