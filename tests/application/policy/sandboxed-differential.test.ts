import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ShellSyntaxError } from '../../../src/domain/policy/policy-errors';
import type { Command, CommandList, Word } from '../../../src/application/shell/shell-ast';
import { parseShellCommand } from '../../../src/application/shell/shell-parser';
import { seededRandom } from '../../support/seeded-random';

/**
 * Differential test of sandboxed mode's reading of control structures: the sandboxed floor is only as good as the
 * parser's idea of which words are command names. Generated lines of loops and conditionals (with reserved words,
 * separators and newlines in every position) are run under /bin/sh (dash), as sandboxed mode launches them, with every
 * program a stand-in that logs its name; every program dash ran must be a command name the parser found. A name dash
 * runs that the parser took for an argument would be a way past the floor (`for x in a; do sudo ...`).
 */

const PROGRAMS = ['alpha', 'beta', 'gamma', 'sudo', 'doas'];
const WORDS = [
  'a',
  'b',
  'do',
  'done',
  'then',
  'fi',
  'in',
  'else',
  'elif',
  'sudo',
  '"do"',
  "'fi'",
  '\\done',
  'x=1',
  '1',
];
const OPENERS = ['for', 'while', 'until', 'if'] as const;

function pick<T>(random: () => number, from: readonly T[]): T {
  return from[Math.floor(random() * from.length)] as T;
}

function sep(random: () => number): string {
  return pick(random, ['; ', ';', '\n', ' \n ', ';\n']);
}

function simple(random: () => number): string {
  const words = Array.from({ length: Math.floor(random() * 3) }, () => pick(random, WORDS));
  return [pick(random, PROGRAMS), ...words].join(' ');
}

function list(random: () => number, depth: number): string {
  const count = 1 + Math.floor(random() * 2);
  return Array.from({ length: count }, () => command(random, depth)).join(
    pick(random, ['; ', ' && ', ' || ', ' | ', '\n']),
  );
}

function command(random: () => number, depth: number): string {
  if (depth > 2 || random() < 0.45) return simple(random);
  const opener = pick(random, OPENERS);
  if (opener === 'for') {
    const words = Array.from({ length: Math.floor(random() * 3) }, () => pick(random, WORDS)).join(' ');
    const header = random() < 0.8 ? `for v in ${words}` : 'for v';
    return `${header}${sep(random)}do ${list(random, depth + 1)}${sep(random)}done`;
  }
  if (opener === 'if') {
    const elif =
      random() < 0.3
        ? `${sep(random)}elif ${list(random, depth + 1)}${sep(random)}then ${list(random, depth + 1)}`
        : '';
    const otherwise = random() < 0.4 ? `${sep(random)}else ${list(random, depth + 1)}` : '';
    return `if ${list(random, depth + 1)}${sep(random)}then ${list(random, depth + 1)}${elif}${otherwise}${sep(random)}fi`;
  }
  return `${opener} ${list(random, depth + 1)}${sep(random)}do ${list(random, depth + 1)}${sep(random)}done`;
}

/** Every command name in the parsed line: simple commands in lists, structures and substitutions. */
function commandNames(parsed: CommandList): Set<string> {
  const names = new Set<string>();
  const visitWords = (words: readonly Word[]) => {
    for (const word of words) for (const expansion of word.expansions) if (expansion.body) visitList(expansion.body);
  };
  const visit = (command: Command) => {
    if (command.type === 'simple') {
      if (command.words[0]) names.add(command.words[0].value);
      visitWords([...command.assignments, ...command.words]);
    } else if ('bodies' in command) {
      visitWords(command.words);
      command.bodies.forEach(visitList);
    } else {
      visitList(command.body);
    }
  };
  const visitList = (body: CommandList) => body.items.forEach((item) => item.pipeline.commands.forEach(visit));
  visitList(parsed);
  return names;
}

jest.setTimeout(120_000);

describe('sandboxed mode: the parser finds every program dash runs in loops and conditionals', () => {
  let dir: string;
  let log: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-sandboxed-diff-'));
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    log = path.join(dir, 'ran.log');
    // Logs its name; exits 0 or 1 in turn so loops both run and end; after 8 runs it kills the line's whole process
    // group (the line runs under setsid), so no generated loop runs on.
    const standIn = `#!/bin/sh\necho "\${0##*/}" >> '${log}'\nn=$(wc -l < '${log}')\n[ "$n" -gt 8 ] && kill -9 0\nexit $((n % 2))\n`;
    for (const name of PROGRAMS) {
      fs.writeFileSync(path.join(bin, name), standIn, { mode: 0o755 });
    }
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('on 150 generated lines (seeded), plus hand-written ones', () => {
    const random = seededRandom(Number(process.env.DIFFERENTIAL_SEED ?? 16));
    const lines = [
      'for x in a; do sudo; done',
      'for do in do; do alpha; done',
      'if alpha; then beta fi; fi',
      'while alpha; do beta done; done',
      'for v\ndo alpha\ndone',
      'if alpha\nthen\n  beta\nelif gamma\nthen sudo\nelse doas\nfi',
      ...Array.from({ length: 150 }, () => list(random, 0)),
    ];
    let judged = 0;
    const mismatches: string[] = [];
    for (const line of lines) {
      let names: Set<string>;
      try {
        names = commandNames(parseShellCommand(line, { controlStructures: true }).list);
      } catch (error) {
        if (!(error instanceof ShellSyntaxError)) throw error;
        continue; // Refused lines are denied: nothing runs.
      }
      judged += 1;
      fs.writeFileSync(log, '');
      spawnSync('/usr/bin/setsid', ['/bin/sh', '-c', line], {
        cwd: dir,
        env: { PATH: `${path.join(dir, 'bin')}:/usr/bin:/bin` },
        timeout: 5_000,
        stdio: 'ignore',
      });
      const ran = fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter((name) => name !== '');
      const unseen = ran.filter((name) => !names.has(name));
      if (unseen.length > 0) mismatches.push(`${JSON.stringify(line)} ran ${unseen.join(', ')} the parser did not see`);
    }
    expect(mismatches).toEqual([]);
    // Most generated lines must be readable, or the test would prove little.
    expect(judged).toBeGreaterThan(120);
  });
});
