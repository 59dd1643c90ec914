package human

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// SaveReplay writes data to a new file name.jsonl in dir (created 0700 if
// missing), or name-2.jsonl, name-3.jsonl ... when that exists, never
// replacing a file; the file is 0600, as the AI's reasons in it reveal its
// fleet. It returns the path written.
func SaveReplay(dir, name string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("human: replay directory: %w", err)
	}
	for k := 1; k <= 1000; k++ {
		base := name + ".jsonl"
		if k > 1 {
			base = fmt.Sprintf("%s-%d.jsonl", name, k)
		}
		path := filepath.Join(dir, base)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("human: write replay: %w", err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("human: write replay %s: %w", path, err)
		}
		return path, nil
	}
	return "", fmt.Errorf("human: write replay: %s.jsonl and 999 numbered copies exist in %s", name, dir)
}
