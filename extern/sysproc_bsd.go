//go:build unix && !linux

package extern

import "syscall"

// sysProcAttr puts a bot in a process group of its own.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
