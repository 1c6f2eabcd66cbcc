// Decides tool calls with Gemini CLI's own policy engine, from the pinned
// npm release: its TOML loader, its default policies and PolicyEngine, as
// Gemini CLI builds them at start-up (packages/core/src/policy/config.ts:
// createPolicyEngineConfig(settings, approvalMode, defaultPoliciesDir,
// interactive); policy-engine.ts: PolicyEngine.check(toolCall,
// serverName) -> {decision}). google-gemini/gemini-cli, Apache-2.0.
//
// Input on stdin: {"core": path of the bundle's module that exports the
// core package, "cases": [{"policyDir", "approvalMode", "interactive",
// "calls": [{"name", "args"}]}]}. Output, in the file named by the first
// argument (the engine logs on stdout): one list of decisions
// ("allow", "deny", "ask_user") per case, or {"error": ...} for a case
// whose policy files Gemini reports an error in.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const core = await import(pathToFileURL(input.core).href);

const errors = [];
core.coreEvents?.on?.('user-feedback', (e) => {
  if (e?.severity === 'error') errors.push(e.message);
});

const out = [];
for (const c of input.cases) {
  errors.length = 0;
  const config = await core.createPolicyEngineConfig(
    { policyPaths: [c.policyDir] },
    c.approvalMode,
    undefined,
    c.interactive,
  );
  const engine = new core.PolicyEngine(config);
  const decisions = [];
  for (const call of c.calls) {
    const r = await engine.check({ name: call.name, args: call.args }, undefined);
    decisions.push(r.decision);
  }
  out.push(errors.length ? { error: errors.join('\n'), decisions } : { decisions });
}
writeFileSync(process.argv[2], JSON.stringify(out));
process.exit(0);
