package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiles are the --cpuprofile and --memprofile files of one run: the
// CPU profile runs from before the command to its end, and the heap
// profile is written at the end (after a collection), both in pprof's
// format (go tool pprof FILE).
type profiles struct {
	cpu, mem string
	cpuFile  *os.File
}

// start begins the CPU profile, when asked.
func (p *profiles) start() error {
	if p.cpu == "" {
		return nil
	}
	f, err := os.Create(p.cpu)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	p.cpuFile = f
	return nil
}

// stop ends the CPU profile and writes the heap profile, when asked; it
// returns the first error.
func (p *profiles) stop() error {
	var errs []error
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		if err := p.cpuFile.Close(); err != nil {
			errs = append(errs, fmt.Errorf("--cpuprofile: %w", err))
		}
		p.cpuFile = nil
	}
	if p.mem != "" {
		runtime.GC() // the heap profile shows what is live at the end
		if err := writeHeapProfile(p.mem); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile: %w", err))
		}
		p.mem = ""
	}
	return errors.Join(errs...)
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
