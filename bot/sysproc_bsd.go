//go:build unix && !linux

package bot

import "syscall"

// sysProcAttr puts a bot in a process group of its own.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
