package oracle

import (
	"slices"
	"strings"
)

// examplesHold: the rule's match and not_match are lists of strings, and
// it matches each of the first and none of the second (an allow rule by
// permitting a call carrying the example, a deny or ask rule by biting).
func (r argRule) examplesHold(m map[string]any, allowList bool) bool {
	for member, want := range map[string]bool{"match": true, "not_match": false} {
		x, present := m[member]
		if !present {
			continue
		}
		list, isList := x.([]any)
		if !isList {
			return false
		}
		for _, e := range list {
			var c callReading
			switch example, isString := e.(string); {
			case r.cond == "args_pattern" || r.cond == "args":
				if _, isObject := e.(map[string]any); !isObject {
					return false
				}
				c.args, c.argsOK = readArgs(e)
				c.argsJSON = canonicalJSON(c.args)
			case !isString:
				return false
			case r.cond == "domain":
				c.url, c.urlOK = readURL(example)
				c.urlReadHosts = c.url.exact || len(c.url.hosts) > 0
			case r.cond == "path":
				if !strings.HasPrefix(example, "/") {
					example = "/" + strings.TrimPrefix(example, "./")
				}
				c.paths, c.pathsOK = []string{example}, resolved(example)
				c.root = "/"
			default:
				c.command, c.commandOK = shellParts(example)
			}
			matches := r.bites(c)
			if allowList {
				matches = permits([]argRule{r}, c, nil)
			}
			if matches != want {
				return false
			}
		}
	}
	return true
}

// permits: the allow rules of a layer that name the call's tool let it
// through: every kind of reading they look at, and the command and URL
// the tool's rule_arguments name (required), is permitted by rules of
// its kind.
func permits(rules []argRule, c callReading, required []string) bool {
	kinds := map[string][]argRule{}
	for _, r := range rules {
		kinds[readsOf(r.cond)] = append(kinds[readsOf(r.cond)], r)
	}
	for _, k := range required {
		if _, ok := kinds[k]; !ok {
			kinds[k] = nil
		}
	}
	if len(rules) == 0 {
		return false
	}
	for kind, rs := range kinds {
		if !kindPermits(kind, rs, c) {
			return false
		}
	}
	return true
}

func readsOf(cond string) string {
	switch cond {
	case "domain":
		return "url"
	case "path":
		return "path"
	case "args", "args_pattern":
		return "args"
	}
	return "command"
}

func kindPermits(kind string, rules []argRule, c callReading) bool {
	switch kind {
	case "url":
		return slices.ContainsFunc(rules, func(r argRule) bool { return c.urlOK && c.url.exact && domainNames(r.domain, c.url.host) })
	case "args":
		return c.argsOK && slices.ContainsFunc(rules, func(r argRule) bool {
			if r.cond == "args" {
				return hasMembers(c.args, r.members)
			}
			return r.pattern.MatchString(c.argsJSON)
		})
	case "path":
		return len(rules) > 0 && c.pathsOK && allPermitted(rules, c)
	}
	if len(rules) == 0 || !c.commandOK {
		return false
	}
	for _, part := range c.command {
		if !readPart(part).exact {
			return false
		}
		if !slices.ContainsFunc(rules, func(r argRule) bool { return r.allowsWords(part) }) {
			return false
		}
	}
	return true
}

// allPermitted: every path of the call is matched, exactly, by one of
// the path rules.
func allPermitted(rules []argRule, c callReading) bool {
	for _, p := range c.paths {
		if !slices.ContainsFunc(rules, func(r argRule) bool {
			glob, _ := r.anchored(c.root, false)
			return globMatches(glob, segments(p), "/")
		}) {
			return false
		}
	}
	return true
}
