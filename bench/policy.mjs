// The cost of judging one command line (issue 12 §6): the built policy engine, in-process, against a real temp
// workspace, for lines from 10 to 100 000 characters in two shapes: one command with many operands (`echo a a a`,
// each operand inspected as a path) and many commands (`ls;ls;...`, each judged and named in the launch script).
// Judging is synchronous, so the slowest single evaluation is the longest event-loop pause it causes.
// `node bench/policy.mjs` prints the table; `npm run bench` puts it in docs/performance.md.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertBuilt, fixed, hrtimeMs, isMain, makeTempDir, removeDir, ROOT, summarize } from './support.mjs';

const LENGTHS = [10, 100, 1_000, 10_000, 100_000];
const SHAPES = {
  'echo a a a ...': (length) => `echo${' a'.repeat(Math.max(0, Math.floor((length - 4) / 2)))}`,
  'ls;ls;...': (length) => 'ls;'.repeat(Math.max(1, Math.floor(length / 3))),
};
/** Per point: at most this many evaluations, and stop once this much time was spent. */
const MAX_SAMPLES = 200;
const BUDGET_MS = 3_000;

async function load(relative) {
  return import(pathToFileURL(path.join(ROOT, 'dist', relative)).href);
}

export async function runPolicyBench() {
  assertBuilt();
  const { DefaultPolicyEngine } = await load('application/policy/default-policy-engine.js');
  const { NodePathInspector } = await load('adapters/policy/node-path-inspector.js');
  const { DEFAULT_POLICY_SETTINGS } = await load('application/policy/policy-settings.js');
  const workspace = makeTempDir('term-mcp-bench-policy-');
  try {
    writeFileSync(path.join(workspace, 'a'), 'a\n');
    const inspector = new NodePathInspector(workspace);
    const engine = new DefaultPolicyEngine(inspector, DEFAULT_POLICY_SETTINGS, 100_000);
    const results = [];
    for (const [shape, make] of Object.entries(SHAPES)) {
      for (const length of LENGTHS) {
        const command = make(length);
        const samples = [];
        const started = process.hrtime.bigint();
        let verdict = '';
        while (samples.length < MAX_SAMPLES && (samples.length < 3 || hrtimeMs(started) < BUDGET_MS)) {
          const start = process.hrtime.bigint();
          verdict = engine.evaluate({ command, cwd: inspector.root }).verdict;
          samples.push(hrtimeMs(start));
        }
        results.push({ shape, length: command.length, verdict, ...summarize(samples) });
      }
    }
    return { results };
  } finally {
    removeDir(workspace);
  }
}

export function policyMarkdown({ results }) {
  const rows = results.map((r) => `| \`${r.shape}\` | ${r.length} | ${r.verdict} | ${r.n} | ${fixed(r.p50, 3)} | ${fixed(r.p99, 3)} | ${fixed(r.max, 3)} |`);
  return ['| line | characters | verdict | samples | p50 ms | p99 ms | max ms (event-loop pause) |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

if (isMain(import.meta.url)) {
  const result = await runPolicyBench();
  process.stdout.write(`${policyMarkdown(result)}\n`);
}
