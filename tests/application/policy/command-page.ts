import path from 'node:path';
import {
  DEVELOPMENT_COMMANDS,
  HARD_FLOOR_FAMILIES,
  LONG_RUNNING_COMMANDS,
  READ_ONLY_COMMANDS,
  WRITE_COMMANDS,
} from '../../../src/application/policy/command-catalog';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { SANDBOXED_FLOOR_FAMILIES } from '../../../src/application/policy/rules/sandboxed-rule';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import type { LinkListing, PathFacts, PathInspector } from '../../../src/domain/policy/path-inspector';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';

/**
 * Renders docs/commands.md from the catalog and the real rules: every verdict in it is the engine's answer for
 * the sample line, in each mode, against a fixed imaginary workspace (/ws with README.md, src/, out/), so the page
 * cannot drift from the code. tests/application/policy/command-page.test.ts fails when the committed page differs.
 */

const ROOT = '/ws';
const EXISTING: ReadonlyMap<string, boolean> = new Map([
  ['/ws', true],
  ['/ws/README.md', false],
  ['/ws/src', true],
  ['/ws/src/a.ts', false],
  ['/ws/out', true],
]);

/** Paths as if /ws held README.md, src/a.ts and out/; executables as if every catalog command were installed. */
class ImaginaryWorkspace implements PathInspector {
  readonly root = ROOT;

  resolve(cwd: string, token: string): PathFacts {
    const absolute = path.posix.resolve(cwd, token);
    const isDirectory = EXISTING.get(absolute);
    return {
      absolute,
      inside: absolute === ROOT || absolute.startsWith(`${ROOT}/`),
      exists: isDirectory !== undefined,
      isDirectory: isDirectory ?? false,
      viaSymlink: false,
    };
  }

  findExecutable(name: string): string | null {
    return /^[A-Za-z0-9_[][A-Za-z0-9._+-]*$/.test(name) ? `/usr/bin/${name}` : null;
  }

  /** The imaginary workspace holds no symbolic links. */
  listLinks(): LinkListing {
    return { links: [], entries: 1, truncated: false };
  }
}

/** Sample lines per command: the plain use first, then forms that change what the command does. */
const SAMPLES: Readonly<Record<string, readonly string[]>> = {
  cat: ['cat README.md', 'cat /etc/passwd', 'cat --zz README.md'],
  date: ['date +%F', 'date -s 2020-01-01', 'date 0101000020'],
  find: ['find src -name "*.ts"', 'find . -exec rm {} ;', 'find -L .', 'find . -delete'],
  grep: ['grep -n x README.md', 'grep -R x .'],
  ls: ['ls -la', 'ls -L src', 'ls --deref src'],
  rg: ['rg x src', 'rg --pre cat x', 'rg --fol x'],
  sort: [
    'sort README.md',
    'sort --compress-program=gzip README.md',
    'sort --compress-prog=gzip README.md',
    'sort -o out/s README.md',
    'sort --o out/s README.md',
  ],
  tree: ['tree src', 'tree -R src'],
  file: ['file README.md', 'file -C -m x'],
  md5sum: ['md5sum README.md', 'md5sum -c sums'],
  sha256sum: ['sha256sum README.md', 'sha256sum -c sums'],
  echo: ['echo hi', 'echo hi > out/x', 'echo hi > .git/config'],
  git: [
    'git log -n 3',
    'git diff --cached',
    'git status',
    'git diff',
    'git add README.md',
    'git commit -m x',
    'git branch topic',
    'git push',
    'git -C src log',
    'git -c core.pager=sh log',
  ],
  cp: ['cp README.md out/', 'cp README.md /tmp/x', 'cp -L README.md out/'],
  mkdir: ['mkdir out/d'],
  mv: ['mv README.md out/'],
  rm: ['rm README.md', 'rm -rf .', 'rm -rf /'],
  touch: ['touch out/x'],
  tee: ['tee out/x'],
  ln: ['ln -s README.md out/l', 'ln README.md out/h'],
  chmod: ['chmod 644 README.md', 'chmod +x README.md', 'chmod u+s README.md'],
  npm: ['npm test', 'npm install', 'npm exec -- sh'],
  sleep: ['sleep 1'],
};

/** Lines only sandboxed mode allows, and what it still refuses or asks about. */
const SANDBOXED_SAMPLES: readonly string[] = [
  './build.sh',
  'sh -c "make && npm test"',
  'python3 -m pytest',
  'for f in src/*.ts; do wc -l "$f"; done',
  'cat /etc/passwd',
  'echo x > /tmp/x',
  '$TOOL run',
  'curl https://example.com',
  'git fetch',
  'sudo make install',
  'sh -c "su -c id"',
  'mount -t tmpfs none out',
  'docker ps',
  'case x in a) ls;; esac',
];

const MODES: readonly PolicyMode[] = ['inspect', 'confirm', 'trusted', 'sandboxed'];

function verdictCell(line: string, mode: PolicyMode): string {
  const engine = new DefaultPolicyEngine(new ImaginaryWorkspace(), { ...DEFAULT_POLICY_SETTINGS, mode });
  const decision = engine.evaluate({ command: line, cwd: ROOT });
  const verdict = decision.verdict === 'approval_required' ? 'approval' : decision.verdict;
  return `${verdict} (\`${decision.matchedRule}\`)`;
}

function table(names: readonly string[], samplesFor: (name: string) => readonly string[]): string[] {
  const rows = [`| Command line | ${MODES.join(' | ')} |`, `|---|${MODES.map(() => '---|').join('')}`];
  for (const name of names) {
    for (const line of samplesFor(name)) {
      rows.push(`| \`${line.replace(/\|/g, '\\|')}\` | ${MODES.map((mode) => verdictCell(line, mode)).join(' | ')} |`);
    }
  }
  return rows;
}

const sorted = (names: Iterable<string>) => [...names].sort((a, b) => a.localeCompare(b));
const defaultSample = (name: string) => SAMPLES[name] ?? [name === '[' ? '[ -f README.md ]' : `${name} README.md`];

export function renderCommandPage(): string {
  const lines = [
    '# Built-in commands',
    '',
    '<!-- Generated by tests/application/policy/command-page.ts from the catalog and the rules; do not edit.',
    '     Regenerate: UPDATE_COMMAND_PAGE=1 npx jest tests/application/policy/command-page.test.ts -->',
    '',
    'What the built-in policy decides for each command, in each mode, for sample lines run from the root of a',
    'workspace holding `README.md`, `src/` and `out/`. Each cell is the verdict and the deciding rule, computed by the',
    'policy engine itself when this page was generated. A policy file can only tighten this ([policy.md](policy.md)).',
    'Any command not listed here is denied (`not_allowlisted`) unless a policy file lists it.',
    '',
    '## Read-only commands',
    '',
    'Every path operand must resolve inside the workspace; options that follow symlinks, run programs or write are refused.',
    'Options are read as each program reads them ([policy.md](policy.md#how-options-are-read-issue-20)): an abbreviation',
    'is judged as the option it stands for; an ambiguous or unknown option is refused.',
    '',
    ...table(sorted([...READ_ONLY_COMMANDS].filter((name) => name !== 'git')), defaultSample),
    '',
    '## cd (the shell builtin)',
    '',
    'The rest of the list is judged in the directory cd goes to; outside the workspace it is refused ([policy.md](policy.md#cd-is-the-shells-builtin)).',
    '',
    ...table(['cd'], () => ['cd src && ls', 'cd src && cat ../README.md', 'cd .. && ls', 'cd']),
    '',
    '## git',
    '',
    'Launched with settings the repository cannot override (see [security.md](security.md)).',
    '',
    ...table(['git'], defaultSample),
    '',
    '## Commands that write',
    '',
    ...table(sorted(WRITE_COMMANDS), defaultSample),
    '',
    '## Development commands (run project code)',
    '',
    ...table(sorted(DEVELOPMENT_COMMANDS), (name) => SAMPLES[name] ?? [`${name} test`]),
    '',
    '## Long-running commands',
    '',
    ...table(sorted(LONG_RUNNING_COMMANDS), defaultSample),
    '',
    '## Sandboxed mode: any readable line',
    '',
    'In sandboxed mode the bubblewrap sandbox bounds what a program does, so scripts, interpreters, shells, loops and',
    'pipelines run without an approval ([security.md](security.md)). What it still refuses or asks about:',
    '',
    ...table(['sandboxed'], () => SANDBOXED_SAMPLES),
    '',
    '## Hard floor: denied in inspect, confirm and trusted',
    '',
    'A policy file can neither make these read-only nor approvable. Sandboxed mode lets the sandbox contain shells,',
    'interpreters, wrappers, network tools (without a network) and archivers; it keeps its own floor, below.',
    '',
    ...Object.entries(HARD_FLOOR_FAMILIES).map(
      ([family, names]) =>
        `- **${family}**: ${sorted(names)
          .map((n) => `\`${n}\``)
          .join(', ')}`,
    ),
    '',
    '## Sandboxed floor: denied in sandboxed mode',
    '',
    'Wherever they stand in the line (inside loops, substitutions, `sh -c`, `env`, `xargs`...). Network clients and',
    'package downloads are denied while ALLOW_NETWORK is off and need an approval when it is on.',
    '',
    ...Object.entries(SANDBOXED_FLOOR_FAMILIES).map(
      ([family, names]) =>
        `- **${family}**: ${sorted(names)
          .map((n) => `\`${n}\``)
          .join(', ')}`,
    ),
    '',
  ];
  return lines.join('\n');
}
