package diff

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	// Identity names the policy by resolved revision.
	Identity Identity
	// Engine decides with it.
	Engine *engine.Engine
}

// Identity names a policy by what it resolved to, for a report a
// reviewer signs off.
type Identity struct {
	// Spec is the policy as it was given.
	Spec string `json:"spec"`
	// Kind is embedded, bundle, config or git.
	Kind string `json:"kind"`
	// Commit is the git commit the policy was read at (git:REV: the
	// revision resolved to a full commit hash), or the revision this
	// binary was built from (the embedded bundle, and a configuration
	// overlay on it; empty when the build does not say); empty for a
	// bundle:PATH.
	Commit string `json:"commit,omitempty"`
	// BundleRevision is the revision of the bundle's manifest, as the
	// engine reports it (engine.Engine.Revision): what its decision log
	// events record.
	BundleRevision string `json:"bundle_revision"`
	// ConfigDigest, for a configuration overlay, is "sha256:" and the
	// hex SHA-256 of the overlay's canonical JSON: the file decoded and
	// encoded again with sorted keys and no white space, so that
	// reformatting the file keeps the digest.
	ConfigDigest string `json:"config_digest,omitempty"`
}

// String reads "KIND SPEC: commit C, bundle revision R, configuration
// sha256:D".
func (id Identity) String() string {
	parts := []string{}
	if id.Commit != "" {
		parts = append(parts, "commit "+id.Commit)
	}
	parts = append(parts, "bundle revision "+id.BundleRevision)
	if id.ConfigDigest != "" {
		parts = append(parts, "configuration "+id.ConfigDigest)
	}
	return label(id.Spec) + " (" + strings.Join(parts, ", ") + ")"
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
	id := Identity{Spec: label(spec), Kind: kind}
	var local []engine.Option
	switch kind {
	case "embedded":
		id.Commit = buildCommit()
	case "bundle":
		local = append(local, engine.WithBundle(value))
	case "config":
		config, err := engine.ReadConfig(value)
		if err != nil {
			return Policy{}, cleanup, fmt.Errorf("%s: %w", spec, err)
		}
		local = append(local, engine.WithConfig(config))
		id.Commit = buildCommit()
		if id.ConfigDigest, err = configDigest(config); err != nil {
			return Policy{}, cleanup, fmt.Errorf("%s: %w", spec, err)
		}
	case "git":
		if value == "" || strings.HasPrefix(value, "-") {
			return Policy{}, cleanup, fmt.Errorf("%s: give a git revision after git: (a commit, branch or tag)", spec)
		}
		// The revision is resolved once, and that commit is read: a
		// branch that moves meanwhile changes neither.
		commit, err := gitCommit(ctx, repo, value)
		if err != nil {
			return Policy{}, cleanup, fmt.Errorf("%s: %w (is it a revision of this repository?)", spec, err)
		}
		id.Commit = commit
		dir, err := os.MkdirTemp("", "tooleval-diff-")
		if err != nil {
			return Policy{}, cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		if err := gitPolicies(ctx, repo, commit, dir); err != nil {
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
	id.BundleRevision = e.Revision()
	return Policy{Spec: spec, Identity: id, Engine: e}, cleanup, nil
}

// buildCommit is the revision this binary was built from, or "" when
// the build does not say ("dev").
func buildCommit() string {
	if r := engine.BuildRevision(); r != "dev" {
		return r
	}
	return ""
}

// configDigest is Identity.ConfigDigest of an overlay.
func configDigest(c engine.Config) (string, error) {
	data, err := json.Marshal(c) // maps encode with sorted keys, compactly
	if err != nil {
		return "", fmt.Errorf("configuration digest: %w", err)
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// gitCommit resolves a revision of the repository to its commit hash.
func gitCommit(ctx context.Context, repo, rev string) (string, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", repo, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse %s: %w", rev, err)
	}
	return strings.TrimSpace(string(out)), nil
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
