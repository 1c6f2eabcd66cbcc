package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestNumbersSpelledAsJavaScript compares the policy's spelling of
// numbers (data.tooleval.arguments.args.es_number, what the canonical JSON of
// args_pattern writes) with what node's JSON.stringify writes for the
// same JSON text (ECMAScript's Number::toString,
// https://tc39.es/ecma262/#sec-numeric-types-number-tostring), on
// generated numbers: huge integers beyond 2^53, tiny and huge exponents,
// negative zero, sums like 0.1+0.2, many digits, subnormals, and each in
// several spellings. 2,000 numbers (ten times more in make soak). Skipped
// when node is not installed.
func TestNumbersSpelledAsJavaScript(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: JSON.stringify cannot be asked")
	}
	texts := numberTexts(rand.New(rand.NewPCG(2026, 12)), scaled(t, 2000))

	// node: JSON.parse the list, then JSON.stringify each number
	cmd := exec.Command(node, "-e", `const a = JSON.parse(require("fs").readFileSync(0, "utf8"));`+
		`process.stdout.write(JSON.stringify(a.map(x => JSON.stringify(x))))`)
	cmd.Stdin = strings.NewReader("[" + strings.Join(texts, ",") + "]")
	out, err := cmd.Output()
	require.NoError(t, err)
	var want []string
	require.NoError(t, json.Unmarshal(out, &want))
	require.Len(t, want, len(texts))

	// the policy: each number, and all of them in one object's canonical
	// JSON; in the order generated and reversed, so that no number's
	// spelling is only ever answered by a cached result for an equal
	// number spelled otherwise before it
	q, err := preparePolicyQuery(`x := [data.tooleval.arguments.args.es_number(n) | some n in input.list]; ` +
		`y := data.tooleval.arguments.args.canonical_json(input.object)`)
	require.NoError(t, err)
	var object strings.Builder
	object.WriteString("{")
	for i, w := range want {
		if i > 0 {
			object.WriteString(",")
		}
		fmt.Fprintf(&object, `"n%05d":%s`, i, w)
	}
	object.WriteString("}")
	wrong := 0
	for _, reversed := range []bool{false, true} {
		list := make([]*ast.Term, len(texts))
		members := make([][2]*ast.Term, len(texts))
		for i, text := range texts {
			j := i
			if reversed {
				j = len(texts) - 1 - i
			}
			list[j] = ast.StringTerm(text)
			members[j] = [2]*ast.Term{ast.StringTerm(fmt.Sprintf("n%05d", i)), ast.NumberTerm(json.Number(text))}
		}
		input := ast.NewObject(
			[2]*ast.Term{ast.StringTerm("list"), ast.ArrayTerm(list...)},
			[2]*ast.Term{ast.StringTerm("object"), ast.ObjectTerm(members...)},
		)
		rs, err := q.Eval(context.Background(), rego.EvalParsedInput(input))
		require.NoError(t, err)
		require.Len(t, rs, 1, "undefined: a number has no spelling")
		got := rs[0].Bindings["x"].([]any)
		require.Len(t, got, len(texts), "a number has no spelling")
		for i, text := range texts {
			j := i
			if reversed {
				j = len(texts) - 1 - i
			}
			if got[j] != want[i] {
				wrong++
				if wrong <= 10 {
					t.Errorf("%s: JSON.stringify writes %s, the policy %s", text, want[i], got[j])
				}
			}
		}
		require.Equal(t, object.String(), rs[0].Bindings["y"], "the canonical JSON of every number at once")
	}
	t.Logf("%d numbers spelled as JSON.stringify spells them (twice), %d differences", len(texts), wrong)
	require.Zero(t, wrong)
}

// numberTexts are n JSON number texts (within float64's range, JSON's
// syntax) of the kinds TestNumbersSpelledAsJavaScript names.
func numberTexts(r *rand.Rand, n int) []string {
	fixed := []string{
		"0", "-0", "0.0", "-0.0", "0e0", "0E-5", "1", "-1", "1.0", "1e0", "10", "1e1",
		"10000000", "1e7", "1.0e7", "1E7", "10000000.0", "1e+7", "100000e2",
		"1e20", "1e21", "-1e21", "999999999999999999999", "1000000000000000000000", "999999999999999900000",
		"1e-6", "0.000001", "1e-7", "0.0000001", "9.999999999999999e-7", "1.5e-7",
		"9007199254740992", "9007199254740993", "9007199254740995", "18446744073709551617",
		"123456789012345678901234567890", "1.7976931348623157e308", "2.2250738585072014e-308",
		"5e-324", "2.5e-324", "1e-400", "4.9406564584124654e-324",
		"0.30000000000000004", "0.1", "0.2", "0.3", "123.456", "100.5e-2",
	}
	out := append([]string(nil), fixed...)
	for len(out) < n {
		switch r.IntN(8) {
		case 0: // a float64 of random bits, finite
			f := math.Float64frombits(r.Uint64())
			if math.IsInf(f, 0) || math.IsNaN(f) {
				continue
			}
			out = append(out, strconv.FormatFloat(f, 'g', -1, 64))
		case 1: // the same with 17 significant digits, in exponent form
			f := math.Float64frombits(r.Uint64())
			if math.IsInf(f, 0) || math.IsNaN(f) {
				continue
			}
			out = append(out, strconv.FormatFloat(f, 'e', 16, 64))
		case 2: // an integer of 1 to 40 digits
			out = append(out, randomDigits(r, 1+r.IntN(40), true))
		case 3: // a power of ten, or a digit times one, across the range
			out = append(out, fmt.Sprintf("%de%d", 1+r.IntN(9), r.IntN(630)-323))
		case 4: // sums of decimals, as float64 arithmetic leaves them
			f := float64(r.IntN(1000))/10 + float64(r.IntN(1000))/100
			out = append(out, strconv.FormatFloat(f, 'g', 17, 64))
		case 5: // many digits around a point, and an exponent
			out = append(out, fmt.Sprintf("%s.%se%d", randomDigits(r, 1+r.IntN(25), true), randomDigits(r, 1+r.IntN(25), false), r.IntN(60)-30))
		case 6: // a subnormal
			f := math.Float64frombits(r.Uint64() & (1<<52 - 1))
			out = append(out, strconv.FormatFloat(f, 'g', -1, 64))
		default: // an integer near 1e21 or 2^53, as written or as a float
			base := []float64{1e21, 1 << 53, 1e16, 1e-6, 1e-7}[r.IntN(5)]
			f := base * (1 + (r.Float64()-0.5)*1e-14)
			out = append(out, strconv.FormatFloat(f, []byte{'f', 'e', 'g'}[r.IntN(3)], -1, 64))
		}
		if r.IntN(4) == 0 {
			out[len(out)-1] = "-" + strings.TrimPrefix(out[len(out)-1], "-")
		}
	}
	return out[:n]
}

// randomDigits are n decimal digits, the first not 0 when lead.
func randomDigits(r *rand.Rand, n int, lead bool) string {
	var b bytes.Buffer
	for i := range n {
		d := r.IntN(10)
		if i == 0 && lead && n > 1 {
			d = 1 + r.IntN(9)
		}
		b.WriteByte(byte('0' + d))
	}
	return b.String()
}

// largeRunTotals are decision inputs whose run totals do not fit an
// int64 (or are not integers at all): OPA answers them, and so must the
// engine and the command line, with the same document.
var largeRunTotals = []string{
	`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}, {"id": "b", "name": "nope"}],
	  "run": {"attempts": 9223372036854775807, "refusals": 18446744073709551615, "max_attempts": 100000000000000000000}}`,
	`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}],
	  "run": {"attempts": 1e30, "refusals": 0, "max_refusals": 1e40}}`,
	`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}],
	  "run": {"attempts": 123456789012345678901234567890, "refusals": 2.5}}`,
}

// TestLargeRunTotalsAgreeWithOPA: with run totals above 2^63, opa eval,
// the engine and tooleval eval give the same document (the command line
// used to exit 2 and the engine to fail closed).
func TestLargeRunTotalsAgreeWithOPA(t *testing.T) {
	t.Parallel()
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	for i, in := range largeRunTotals {
		path := harness.WriteFile(t, "large.json", []byte(in))
		want := harness.OPA(t, "eval", "--format", "raw", "--bundle", harness.BundlePath(t), "--input", path, "data.tooleval.decision")
		d, err := e.Decide(context.Background(), engine.JSON([]byte(in)))
		require.NoError(t, err, "input %d", i)
		got, err := d.JSON()
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(got), "engine, input %d", i)
		out, stderr, code := harness.CLI(t, "", "eval", "-i", path, "--format", "json")
		require.Contains(t, []int{0, 1, 3}, code, "input %d: %s", i, stderr)
		require.JSONEq(t, string(want), out, "command line, input %d", i)
	}
}
