package diff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tooleval/tooleval/engine"
)

// Policy is one side of a comparison: an engine and how it was named.
type Policy struct {
	// Spec is the policy as it was given (see Open).
	Spec string
	// Engine decides with it.
	Engine *engine.Engine
}

// Open loads the policy a spec names:
//
//	embedded (or "")   the bundle embedded in this binary
//	bundle:PATH        a bundle directory or tarball
//	config:FILE        a configuration overlay for the embedded bundle
//	git:REV            this repository's policies/ at a git revision
//
// A spec without a prefix is a bundle when PATH is a directory or a
// tarball and a configuration overlay when it is a .json file. repo is
// the directory git revisions are read from; cleanup removes what Open
// extracted.
func Open(ctx context.Context, spec, repo string, opts ...engine.Option) (p Policy, cleanup func(), err error) {
	cleanup = func() {}
	kind, value := classify(spec)
	var local []engine.Option
	switch kind {
	case "embedded":
	case "bundle":
		local = append(local, engine.WithBundle(value))
	case "config":
		config, err := engine.ReadConfig(value)
		if err != nil {
			return Policy{}, cleanup, fmt.Errorf("%s: %w", spec, err)
		}
		local = append(local, engine.WithConfig(config))
	case "git":
		dir, err := os.MkdirTemp("", "tooleval-diff-")
		if err != nil {
			return Policy{}, cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		if err := gitPolicies(ctx, repo, value, dir); err != nil {
			cleanup()
			return Policy{}, func() {}, fmt.Errorf("%s: %w", spec, err)
		}
		local = append(local, engine.WithBundle(filepath.Join(dir, "policies")))
	default:
		return Policy{}, cleanup, fmt.Errorf("%q is not a policy: give embedded, bundle:PATH, config:FILE or git:REV", spec)
	}
	e, err := engine.New(ctx, append(opts, local...)...)
	if err != nil {
		cleanup()
		return Policy{}, func() {}, fmt.Errorf("%s: %w", spec, err)
	}
	return Policy{Spec: spec, Engine: e}, cleanup, nil
}

func classify(spec string) (kind, value string) {
	if spec == "" || spec == "embedded" {
		return "embedded", ""
	}
	for _, prefix := range []string{"bundle", "config", "git"} {
		if v, ok := strings.CutPrefix(spec, prefix+":"); ok {
			return prefix, v
		}
	}
	info, err := os.Stat(spec)
	switch {
	case err != nil:
		return "", spec
	case info.IsDir(), strings.HasSuffix(spec, ".tar.gz"):
		return "bundle", spec
	case strings.HasSuffix(spec, ".json"):
		return "config", spec
	}
	return "", spec
}

// gitPolicies extracts policies/ of the repository at revision rev into dir.
func gitPolicies(ctx context.Context, repo, rev, dir string) error {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return errors.New("give a git revision after git: (a commit, branch or tag)")
	}
	archive := exec.CommandContext(ctx, "git", "-C", repo, "archive", "--format=tar", rev, "--", "policies")
	extract := exec.CommandContext(ctx, "tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	extract.Stdin = pipe
	var stderr strings.Builder
	archive.Stderr = &stderr
	if err := extract.Start(); err != nil {
		return fmt.Errorf("tar: %w", err)
	}
	if err := archive.Run(); err != nil {
		_ = extract.Wait()
		return fmt.Errorf("git archive %s: %w: %s(is it a revision of this repository?)", rev, err, stderr.String())
	}
	if err := extract.Wait(); err != nil {
		return fmt.Errorf("tar: %w", err)
	}
	return nil
}
