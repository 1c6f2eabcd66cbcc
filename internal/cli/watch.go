package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchFiles calls changed after any of paths is written, created,
// replaced (renamed over) or removed, once the changes have been quiet
// for settle. A path that is a directory counts with everything under
// its top level. It watches the parent directories, so that a file
// replaced atomically (written beside it, renamed over it) is still
// seen. It returns once the watch is set up; the watch ends with ctx.
func watchFiles(ctx context.Context, paths []string, settle time.Duration, changed func()) error {
	watcher, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	watched := map[string]bool{}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			_ = watcher.Close()
			return fmt.Errorf("watch %s: %w", p, err)
		}
		watched[abs] = true
		if err := watcher.Add(filepath.Dir(abs)); err != nil {
			_ = watcher.Close()
			return fmt.Errorf("watch %s: %w", filepath.Dir(abs), err)
		}
		if info, err := os.Stat(abs); err == nil && info.IsDir() {
			if err := watcher.Add(abs); err != nil {
				_ = watcher.Close()
				return fmt.Errorf("watch %s: %w", abs, err)
			}
		}
	}
	concerns := func(name string) bool {
		abs, err := filepath.Abs(name)
		if err != nil {
			return false
		}
		return watched[abs] || watched[filepath.Dir(abs)]
	}
	go func() {
		defer watcher.Close()
		var timer *time.Timer
		fire := make(chan struct{}, 1)
		for {
			select {
			case <-ctx.Done():
				if timer != nil {
					timer.Stop()
				}
				return
			case event, ok := <-watcher.Events:
				if !ok {
					return
				}
				if !concerns(event.Name) || event.Op == fsnotify.Chmod {
					continue
				}
				if timer != nil {
					timer.Stop()
				}
				timer = time.AfterFunc(settle, func() {
					select {
					case fire <- struct{}{}:
					default:
					}
				})
			case <-fire:
				changed()
			case _, ok := <-watcher.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return nil
}
