import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_PATH, makeTempWorkspace, REPO_ROOT } from '../support/workspace';

/** Issue 23 item 9: the examples of docs/policy.md do what the page says, judged by the built `term-mcp explain`. */
const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'policy.md'), 'utf8');
const blocks = [...doc.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((match) => ({
  lang: match[1] ?? '',
  text: match[2] ?? '',
}));

function block(lang: string, containing: string): string {
  const found = blocks.find((candidate) => candidate.lang === lang && candidate.text.includes(containing));
  if (found === undefined) throw new Error(`docs/policy.md lost its ${lang} example with ${containing}`);
  return found.text;
}

describe('the examples of docs/policy.md', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let policyDir: string;
  beforeAll(() => {
    policyDir = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-policy-docs-'));
    workspace = makeTempWorkspace();
    mkdirSync(path.join(workspace.root, 'src'));
    writeFileSync(path.join(workspace.root, 'README.md'), 'hello\n');
  });
  afterAll(() => {
    workspace.remove();
    rmSync(policyDir, { recursive: true, force: true });
  });

  function explain(
    policy: string,
    fileName: string,
    command: string,
  ): { code: number | null; verdict: string; stderr: string } {
    // Outside the workspace: the server refuses a policy file inside it (a command could rewrite it).
    const file = path.join(policyDir, fileName);
    writeFileSync(file, policy);
    const result = spawnSync(
      process.execPath,
      [CLI_PATH, 'explain', command, '--policy', file, '--workspace', workspace.root, '--json'],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 60_000 },
    );
    // Exit 0 allow, 3 needs approval, 4 deny: each with the JSON judgement (docs/policy.md).
    const judged = result.status === 0 || result.status === 3 || result.status === 4;
    const verdict = judged
      ? String((JSON.parse(result.stdout) as { policy?: { verdict?: unknown } }).policy?.verdict)
      : '';
    return { code: result.status, verdict, stderr: result.stderr };
  }

  test('the YAML example: jq may run, make asks first, find is denied', () => {
    const policy = block('yaml', 'policy.yaml');
    expect(explain(policy, 'policy.yaml', 'jq . README.md').verdict).toBe('allow');
    expect(explain(policy, 'policy.yaml', 'make').verdict).toBe('approval_required');
    expect(explain(policy, 'policy.yaml', 'find .').verdict).toBe('deny');
  });

  test('the JSON example: read-only with jq; npm stays denied in inspect mode, as the page says', () => {
    const policy = block('json', '"mode": "inspect"');
    expect(explain(policy, 'policy.json', 'jq . README.md').verdict).toBe('allow');
    expect(explain(policy, 'policy.json', 'touch x').verdict).toBe('deny');
    expect(
      explain(JSON.stringify({ mode: 'inspect', commands: { require_approval: ['npm'] } }), 'npm.json', 'npm test')
        .verdict,
    ).toBe('deny');
  });

  test('the file with examples starts, and the mistaken variant stops with the line the page shows', () => {
    const policy = block('yaml', 'examples:');
    expect(explain(policy, 'examples.yaml', 'ls').code).toBe(0);
    const mistaken = policy.replace(
      "allow: ['ls -la', 'cat README.md']",
      "allow: ['ls -la', 'cat README.md', 'wc -l README.md']",
    );
    const shown = block('', 'configuration error: policy file example')
      .trim()
      .replace(/^term-mcp stdio: /, '');
    const result = explain(mistaken, 'mistaken.yaml', 'ls');
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`term-mcp explain: ${shown}`);
  });
});
