package codex

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
)

// Codex's other builtins, network_rule and host_executable, carry no
// command rule, but Codex refuses a rules file that calls them with an
// argument they do not take, or a protocol or decision they do not know:
// they are #[starlark_module] functions of fixed parameters
// (policy_builtins in codex-rs/execpolicy/src/parser.rs,
// https://github.com/openai/codex/blob/11b641afe75bcc0c802de8cbd0e37e551f21a9ce/codex-rs/execpolicy/src/parser.rs;
// NetworkRuleProtocol::parse and Decision::parse in rule.rs and
// decision.rs): starlark-rust refuses a named argument a function does
// not declare, and a name no builtin defines. A file that fails to parse
// loads no rule of it (PolicyParser::parse returns the error). So
// the import refuses such a file too (exit 3), as it does a prefix_rule
// with an unknown keyword or a call of a function Codex does not have
// (both Starlark errors in either reader).

// codexNetworkProtocols are the protocols network_rule takes
// (NetworkRuleProtocol::parse).
var codexNetworkProtocols = []string{"http", "https", "https_connect", "http-connect", "socks5_tcp", "socks5_udp"}

// codexNetworkDecisions are the decisions network_rule takes
// (parse_network_rule_decision: "deny", or a prefix rule's decision).
var codexNetworkDecisions = []string{"allow", "prompt", "forbidden", "deny"}

// codexNetworkRule is network_rule(host, protocol, decision,
// justification = None), checked as Codex checks it and noted: it
// governs the sandbox's network access, not a tool call.
func codexNetworkRule(note func(*starlark.Thread, string)) *starlark.Builtin {
	return starlark.NewBuiltin("network_rule", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var host, protocol, decision string
		var justification starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "host", &host, "protocol", &protocol,
			"decision", &decision, "justification?", &justification); err != nil {
			return nil, err
		}
		if !slices.Contains(codexNetworkProtocols, protocol) {
			return nil, fmt.Errorf("network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got %s)", protocol)
		}
		if !slices.Contains(codexNetworkDecisions, decision) {
			return nil, fmt.Errorf("network_rule decision must be \"allow\", \"prompt\", \"forbidden\" or \"deny\", not %q", decision)
		}
		if err := codexJustification(justification); err != nil {
			return nil, err
		}
		note(thread, "network_rule: not carried: network rules govern the sandbox's network access, which the runtime keeps; tooleval decides tool calls")
		return starlark.None, nil
	})
}

// codexHostExecutable is host_executable(name, paths), checked for its
// arguments as Codex checks them (a bare name, a list of strings) and
// noted: an allow rule here never matches a program by its absolute
// path.
func codexHostExecutable(note func(*starlark.Thread, string)) *starlark.Builtin {
	return starlark.NewBuiltin("host_executable", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var name string
		var paths *starlark.List
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &name, "paths", &paths); err != nil {
			return nil, err
		}
		if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			return nil, fmt.Errorf("host_executable name must be a bare executable name (got %s)", name)
		}
		for i := range paths.Len() {
			if _, ok := paths.Index(i).(starlark.String); !ok {
				return nil, fmt.Errorf("host_executable paths must be strings (got %s)", paths.Index(i).Type())
			}
		}
		note(thread, "host_executable: not carried: an allow rule here matches the program as the rule spells it, "+
			"never by the absolute path of the executable (narrower); forbidden and prompt rules bite the program by any path")
		return starlark.None, nil
	})
}

// codexJustification checks a justification as Codex does: None, or a
// string that is not blank.
func codexJustification(v starlark.Value) error {
	if v == starlark.None {
		return nil
	}
	j, ok := starlark.AsString(v)
	if !ok || strings.TrimSpace(j) == "" {
		return errors.New("justification cannot be empty")
	}
	return nil
}
