// The cost of judging one command line (issue 12 §6): the built policy engine, in-process, against a real temp
// workspace, for lines from 10 to 100 000 characters (MAX_COMMAND_LENGTH's ceiling) in five shapes, plus the
// costliest lines the per-line bounds still accept (1 000 simple commands, 2 000 words). Judging is synchronous, so
// the slowest single evaluation is the longest event-loop pause it causes. Each point is also parsed alone (the
// reference: the same line's parse, in the same run) and compared with the same shape's 1 000-character line
// scaled to its length, so the figures stay comparable when the machine is loaded.
// `node bench/policy.mjs` prints the table; `npm run bench` puts it in docs/performance.md.
// `node bench/policy.mjs --baseline <dist>` instead measures each shape's 1 000-character line with this build's
// engine and with another build's (an earlier commit's dist/), interleaved sample by sample, so the two figures of
// a change come from the same run under the same load.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertBuilt, fixed, hrtimeMs, isMain, makeTempDir, removeDir, ROOT, summarize } from './support.mjs';

const LENGTHS = [10, 100, 1_000, 10_000, 100_000];
const fill = (length, unit, prefix = '') =>
  prefix + unit.repeat(Math.max(1, Math.floor((length - prefix.length) / unit.length)));
/** Distinct names, so no look-up is answered from the evaluation's memo. */
const distinct = (count, make) => Array.from({ length: count }, (_, index) => make(index.toString(36)));
const SHAPES = {
  'echo a a a ...': (length) => fill(length, ' a', 'echo'),
  'ls;ls;...': (length) => fill(length, 'ls;'),
  'cat f0 f1 f2 ... (distinct operands)': (length) =>
    `cat${distinct(Math.max(1, Math.floor((length - 3) / 6)), (name) => ` f${name.padStart(4, '0')}`).join('')}`,
  "echo '<one long quoted word>'": (length) => `echo '${'x'.repeat(Math.max(1, length - 7))}'`,
  "cat <<'E' (here-document)": (length) => `cat <<'E'\n${fill(length - 12, 'text\n')}E`,
  // Issue 20: every word an option read through ls's table (clusters split, abbreviations resolved).
  'ls -la --hum --color=never --rev ...': (length) => fill(length, ' -la --hum --color=never --rev', 'ls'),
};
/** The costliest lines the bounds accept: as many simple commands, or words, as one line may hold. */
const AT_THE_BOUNDS = {
  '1 000 commands cat f0;cat f1;...': () => distinct(1_000, (name) => `cat f${name}`).join(';'),
  '2 000 words cat f0 f1 ...': () => `cat${distinct(1_999, (name) => ` f${name}`).join('')}`,
};
/** Per point: at most this many evaluations, and stop once this much time was spent. */
const MAX_SAMPLES = 200;
const BUDGET_MS = 3_000;
const WARM_UP = 5;

async function load(relative, dist = path.join(ROOT, 'dist')) {
  return import(pathToFileURL(path.join(dist, relative)).href);
}

/**
 * The built policy engine with the server's own wiring (default policy, MAX_COMMAND_LENGTH at its ceiling) on a temp
 * workspace; only the engine is ever built. `close` removes the workspace.
 */
export async function loadPolicyEngine(dist = undefined) {
  assertBuilt();
  const { loadConfig } = await load('main/config.js', dist);
  const { configuredContainer } = await load('main/container.js', dist);
  const { SERVER_MODULES } = await load('main/modules/index.js', dist);
  const { TYPES } = await load('main/types.js', dist);
  const workspace = makeTempDir('term-mcp-bench-policy-');
  writeFileSync(path.join(workspace, 'a'), 'a\n');
  const container = configuredContainer(
    loadConfig({ WORKSPACE_ROOT: workspace, MAX_COMMAND_LENGTH: '100000' }, {}, workspace),
  );
  container.load(...SERVER_MODULES);
  const inspector = container.get(TYPES.PathInspector);
  return { engine: container.get(TYPES.PolicyEngine), cwd: inspector.root, close: () => removeDir(workspace) };
}

/** The costliest lines the bounds accept, and each shape at MAX_COMMAND_LENGTH's ceiling; flat strings, as from the wire. */
export function costliestAcceptedLines() {
  return [
    ...Object.entries(SHAPES).map(([shape, make]) => ({ shape, line: JSON.parse(JSON.stringify(make(100_000))) })),
    ...Object.entries(AT_THE_BOUNDS).map(([shape, make]) => ({ shape, line: JSON.parse(JSON.stringify(make())) })),
  ];
}

export async function runPolicyBench() {
  const { parseShellCommand } = await load('application/shell/shell-parser.js');
  const { engine, cwd, close } = await loadPolicyEngine();
  const inspector = { root: cwd };
  try {
    const measure = (shape, command) => {
      // A line that arrives over the wire is one flat string; `repeat`/`join` build ropes V8 flattens on first use.
      const line = JSON.parse(JSON.stringify(command));
      let decision = null;
      for (let index = 0; index < WARM_UP; index += 1)
        decision = engine.evaluate({ command: line, cwd: inspector.root });
      const samples = [];
      const cpu = [];
      const parseOnly = [];
      const started = process.hrtime.bigint();
      while (samples.length < MAX_SAMPLES && (samples.length < 3 || hrtimeMs(started) < BUDGET_MS)) {
        const parseStart = process.hrtime.bigint();
        try {
          parseShellCommand(line);
        } catch {
          // refused by the parser (a bound, a syntax error): the time to refuse is the parse time
        }
        parseOnly.push(hrtimeMs(parseStart));
        const cpuStart = process.cpuUsage();
        const start = process.hrtime.bigint();
        decision = engine.evaluate({ command: line, cwd: inspector.root });
        samples.push(hrtimeMs(start));
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1000);
      }
      return {
        shape,
        length: line.length,
        verdict: decision.verdict,
        rule: decision.matchedRule,
        ...summarize(samples),
        cpuP50: summarize(cpu).p50,
        parseP50: summarize(parseOnly).p50,
      };
    };
    const results = [];
    for (const [shape, make] of Object.entries(SHAPES)) {
      const rows = LENGTHS.map((length) => measure(shape, make(length)));
      const reference = rows.find((row) => Math.abs(row.length - 1_000) <= 10);
      // CPU time, not wall time, so a loaded machine's preemptions do not pass for cost; from 1 000 characters up
      // (below that the fixed cost of an evaluation dominates).
      for (const row of rows) {
        const scaled =
          reference && row.length >= reference.length
            ? row.cpuP50 / row.length / (reference.cpuP50 / reference.length)
            : null;
        results.push({ ...row, perCharacterVsThousand: scaled });
      }
    }
    const bounds = Object.entries(AT_THE_BOUNDS).map(([shape, make]) => measure(shape, make()));
    return { results, bounds };
  } finally {
    close();
  }
}

export function policyMarkdown({ results, bounds }) {
  const head = [
    '| line | characters | verdict (rule) | samples | p50 ms | p99 ms | max ms (event-loop pause) | CPU p50 ms | parse alone p50 ms | p50 / parse alone | CPU per character, vs the 1 000-character line |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const row = (r) =>
    `| \`${r.shape}\` | ${r.length} | ${r.verdict} (${r.rule}) | ${r.n} | ${fixed(r.p50, 3)} | ${fixed(r.p99, 3)} | ${fixed(r.max, 3)} | ${fixed(r.cpuP50, 3)} | ${fixed(r.parseP50, 3)} | ${fixed(r.p50 / r.parseP50, 1)}x | ${r.perCharacterVsThousand === null || r.perCharacterVsThousand === undefined ? '' : `${fixed(r.perCharacterVsThousand, 2)}x`} |`;
  return [
    ...head,
    ...results.map(row),
    '',
    'The costliest lines the bounds accept:',
    '',
    ...head,
    ...bounds.map(row),
  ].join('\n');
}

/** Each shape's 1 000-character line judged by this build and by `baselineDist`'s, alternating sample by sample. */
export async function runPolicyComparison(baselineDist) {
  const builds = [await loadPolicyEngine(), await loadPolicyEngine(baselineDist)];
  try {
    return Object.entries(SHAPES).map(([shape, make]) => {
      const line = JSON.parse(JSON.stringify(make(1_000)));
      const samples = builds.map(() => []);
      const verdicts = builds.map(({ engine, cwd }) => {
        let decision = null;
        for (let index = 0; index < WARM_UP * 20; index += 1) decision = engine.evaluate({ command: line, cwd });
        return `${decision.verdict} (${decision.matchedRule})`;
      });
      for (let index = 0; index < MAX_SAMPLES * 5; index += 1) {
        builds.forEach(({ engine, cwd }, build) => {
          const start = process.hrtime.bigint();
          engine.evaluate({ command: line, cwd });
          samples[build].push(hrtimeMs(start));
        });
      }
      const [mine, baseline] = samples.map((build) => summarize(build).p50);
      return { shape, length: line.length, verdicts, mine, baseline, ratio: mine / baseline };
    });
  } finally {
    for (const { close } of builds) close();
  }
}

export function comparisonMarkdown(rows) {
  return [
    '| line (1 000 characters) | verdict: this build / baseline | p50 ms, this build | p50 ms, baseline | this build ÷ baseline |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| \`${r.shape}\` | ${r.verdicts.join(' / ')} | ${fixed(r.mine, 3)} | ${fixed(r.baseline, 3)} | ${fixed(r.ratio, 2)}x |`,
    ),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const at = process.argv.indexOf('--baseline');
  if (at !== -1) {
    process.stdout.write(`${comparisonMarkdown(await runPolicyComparison(path.resolve(process.argv[at + 1])))}\n`);
  } else {
    const result = await runPolicyBench();
    process.stdout.write(`${policyMarkdown(result)}\n`);
  }
}
