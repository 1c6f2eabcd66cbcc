package oracle

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// RuleArguments is one tool's entry of the configuration's
// rule_arguments: the argument holding its shell command and its URL, and
// the arguments that may come with them.
type RuleArguments struct {
	Command string   `json:"command"`
	URL     string   `json:"url"`
	Inert   []string `json:"inert"`
}

// argRule is an argument rule of a layer's list (docs/contract.md,
// Argument rules).
type argRule struct {
	tool   []entry // the rule's tool, as an entry of its list
	cond   string  // command_prefix, command or domain
	words  []string
	domain string
}

// The programs a shell part runs another command through (contract: by
// the last segment of the program's path).
var wrappers = map[string]bool{}

func init() {
	for _, w := range strings.Fields(". bash builtin busybox chroot command csh dash doas env eval exec fish ionice ksh mksh nice nohup nsenter parallel setsid sh source stdbuf su sudo taskset tcsh time timeout unshare watch xargs zsh") {
		wrappers[w] = true
	}
}

// parseArgRule parses an object entry of a list; ok is false for an
// invalid one.
func parseArgRule(m map[string]any, allowList bool, groups map[string][]string) (argRule, bool) {
	var r argRule
	conds := 0
	for k := range m {
		switch k {
		case "tool", "match", "not_match":
		case "command_prefix", "command", "domain":
			conds++
			r.cond = k
		default:
			return r, false
		}
	}
	toolName, isString := m["tool"].(string)
	if !isString || conds != 1 {
		return r, false
	}
	tool, ok := parseEntry(toolName, allowList, groups, false)
	if !ok {
		return r, false
	}
	r.tool = tool
	value, isString := m[r.cond].(string)
	if !isString {
		return r, false
	}
	if r.cond == "domain" {
		r.domain = value
		if value != "*" && !domainEntry.MatchString(value) {
			return r, false
		}
	} else {
		parts, readable := shellParts(value)
		if !readable || len(parts) != 1 || allowList && wrappers[lastSegment(parts[0][0])] {
			return r, false
		}
		r.words = parts[0]
	}
	return r, r.examplesHold(m, allowList)
}

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
			example, isString := e.(string)
			if !isString {
				return false
			}
			var c callReading
			if r.cond == "domain" {
				c.url, c.urlOK = readURL(example)
				c.urlReadHosts = c.url.exact || len(c.url.hosts) > 0
			} else {
				c.command, c.commandOK = shellParts(example)
			}
			matches := r.bites(c)
			if allowList {
				matches = permits([]argRule{r}, c)
			}
			if matches != want {
				return false
			}
		}
	}
	return true
}

var domainEntry = regexp.MustCompile(`^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

func lastSegment(word string) string {
	return word[strings.LastIndex(word, "/")+1:]
}

// shellParts reads a command as the contract says a shell would: its
// parts (split at the control operators) and each part's words, quotes
// removed; readable is false for anything it cannot read exactly.
func shellParts(command string) (parts [][]string, readable bool) {
	if len([]rune(command)) > 10000 {
		return nil, false
	}
	command = strings.TrimRight(command, " \t\n;")
	var (
		word    strings.Builder
		inWord  bool
		current []string
	)
	endWord := func() {
		if inWord {
			current = append(current, word.String())
			word.Reset()
			inWord = false
		}
	}
	endPart := func() bool {
		endWord()
		if len(current) == 0 {
			return false
		}
		parts = append(parts, current)
		current = nil
		return true
	}
	for i := 0; i < len(command); i++ {
		ch := command[i]
		switch {
		case ch == '\'':
			end := strings.IndexByte(command[i+1:], '\'')
			if end < 0 || strings.ContainsRune(command[i+1:i+1+end], 0) {
				return nil, false
			}
			word.WriteString(command[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case ch == '"':
			end := strings.IndexByte(command[i+1:], '"')
			if end < 0 {
				return nil, false
			}
			inner := command[i+1 : i+1+end]
			if strings.ContainsAny(inner, "$`\\!\x00") {
				return nil, false
			}
			word.WriteString(inner)
			inWord = true
			i += end + 1
		case ch == ' ' || ch == '\t':
			endWord()
		case ch == ';' || ch == '\n':
			if !endPart() {
				return nil, false
			}
		case ch == '&' || ch == '|':
			if i+1 < len(command) && (command[i+1] == ch || ch == '|' && command[i+1] == '&') {
				i++
			}
			if !endPart() {
				return nil, false
			}
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', strings.IndexByte("_./:@%+,=-", ch) >= 0:
			word.WriteByte(ch)
			inWord = true
		default:
			return nil, false
		}
	}
	if !endPart() {
		return nil, false
	}
	if len(parts) > 64 {
		return nil, false
	}
	for _, p := range parts {
		if assignment.MatchString(p[0]) {
			return nil, false
		}
	}
	return parts, true
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// urlReading is how the oracle reads a URL: exact with its host, or the
// hosts it could reach.
type urlReading struct {
	exact bool
	host  string
	hosts []string
}

var schemeAndSlashes = regexp.MustCompile(`^([^:/?#]*:)?[/\\]*`)

var plainHost = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

// readURL reads a URL exactly when a browser and every other parser agree
// on its host (http or https, a plain lower-cased host name or a
// dotted-decimal IPv4 address, no userinfo, no escapes); otherwise it
// lists the pieces of its authority any of them could connect to.
func readURL(x any) (urlReading, bool) {
	s, isString := x.(string)
	if !isString {
		return urlReading{}, false
	}
	scheme, _, hasScheme := strings.Cut(s, "://")
	// the authority: after the scheme (if any) and its slashes, up to
	// the first /, ? or #
	authority := schemeAndSlashes.ReplaceAllString(s, "")
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	var hosts []string
	for _, piece := range strings.FieldsFunc(authority, func(r rune) bool { return strings.ContainsRune("@\\: []", r) }) {
		if decoded, err := url.PathUnescape(piece); err == nil {
			hosts = append(hosts, strings.TrimRight(strings.ToLower(decoded), "."))
		}
		hosts = append(hosts, strings.TrimRight(strings.ToLower(piece), "."))
	}
	lower := strings.ToLower(scheme)
	// userinfo and percent-encoding in the authority, a backslash
	// anywhere (a browser reads it as a slash), and anything but
	// printable ASCII
	exact := hasScheme && (lower == "http" || lower == "https") &&
		!strings.ContainsAny(authority, "@%") && !strings.Contains(s, "\\") && isPrintableASCII(s)
	host, port, _ := strings.Cut(authority, ":")
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	exact = exact && plainHost.MatchString(host) && len(port) <= 5 && (port == "" || allDigits(port)) && (!numericLast(host) || dottedDecimal(host))
	if exact {
		return urlReading{exact: true, host: host}, true
	}
	return urlReading{hosts: hosts}, true
}

func isPrintableASCII(s string) bool {
	for _, r := range s {
		if r < 0x21 || r > 0x7e {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// numericLast: the host's last label is a number, so a browser reads the
// host as an IPv4 address.
func numericLast(host string) bool {
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	return allDigits(last) || strings.HasPrefix(last, "0x")
}

var dottedDecimalRE = regexp.MustCompile(`^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$`)

func dottedDecimal(host string) bool { return dottedDecimalRE.MatchString(host) }

// domainNames: a domain entry names host.
func domainNames(entry, host string) bool {
	if entry == "*" {
		return true
	}
	if below, ok := strings.CutPrefix(entry, "*."); ok {
		return strings.HasSuffix(host, "."+below)
	}
	return host == entry
}

// callReading is what a call gives argument rules to read.
type callReading struct {
	command      [][]string
	commandOK    bool
	url          urlReading
	urlOK        bool
	urlReadHosts bool // the URL reaches some host that can be read
}

func readCall(spec RuleArguments, args any) callReading {
	var r callReading
	m, isObject := args.(map[string]any)
	if args == nil {
		m, isObject = map[string]any{}, true
	}
	if !isObject {
		return r
	}
	for name := range m {
		if name != spec.Command && name != spec.URL && !slices.Contains(spec.Inert, name) {
			return r // an argument that may change what runs
		}
	}
	if spec.Command != "" {
		if s, ok := m[spec.Command].(string); ok {
			r.command, r.commandOK = shellParts(s)
		}
	}
	if spec.URL != "" {
		if x, present := m[spec.URL]; present {
			r.url, r.urlOK = readURL(x)
			r.urlReadHosts = r.urlOK && (r.url.exact || len(r.url.hosts) > 0)
		}
	}
	return r
}

// bites: a deny or ask rule could match the call.
func (r argRule) bites(c callReading) bool {
	if r.cond == "domain" {
		if !c.url.exact && !c.urlReadHosts {
			return true
		}
		if c.url.exact {
			return domainNames(r.domain, c.url.host)
		}
		for _, h := range c.url.hosts {
			if domainNames(r.domain, h) {
				return true
			}
		}
		return false
	}
	if !c.commandOK {
		return true
	}
	for _, part := range c.command {
		if wrappers[lastSegment(part[0])] {
			return true
		}
		if strings.EqualFold(lastSegment(part[0]), lastSegment(r.words[0])) && inOrder(r.words[1:], part[1:]) {
			return true
		}
	}
	return false
}

// inOrder: needles appear among words in order.
func inOrder(needles, words []string) bool {
	for _, w := range words {
		if len(needles) > 0 && w == needles[0] {
			needles = needles[1:]
		}
	}
	return len(needles) == 0
}

// permits: the allow rules of a layer that name the call's tool let it
// through.
func permits(rules []argRule, c callReading) bool {
	var commandRules []argRule
	for _, r := range rules {
		if r.cond == "domain" {
			if c.urlOK && c.url.exact && domainNames(r.domain, c.url.host) {
				return true
			}
			continue
		}
		commandRules = append(commandRules, r)
	}
	if len(commandRules) == 0 || !c.commandOK {
		return false
	}
	for _, part := range c.command {
		if wrappers[lastSegment(part[0])] {
			return false
		}
		if !slices.ContainsFunc(commandRules, func(r argRule) bool {
			if r.cond == "command" {
				return slices.Equal(part, r.words)
			}
			return len(part) >= len(r.words) && slices.Equal(part[:len(r.words)], r.words)
		}) {
			return false
		}
	}
	return true
}
