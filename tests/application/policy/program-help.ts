import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';

/** What a program says about its options in `--help`: long names and short letters. */
export interface DocumentedOptions {
  readonly long: ReadonlySet<string>;
  readonly short: ReadonlySet<string>;
}

/** The absolute path of an installed program, or null. */
export function installed(program: string): string | null {
  for (const directory of ['/usr/bin', '/bin']) {
    const candidate = `${directory}/${program}`;
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** `program --help` in the C locale (some programs print it on stderr, or exit non-zero). */
export function helpText(program: string): string {
  const result = spawnSync(program, ['--help'], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    timeout: 20_000,
  });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}

/**
 * Option names from a `--help` text: lines that start (after at most eight spaces of indentation) with an option
 * list such as `-o, --output=FILE`, `-c  --format=FORMAT`, `--color[=WHEN]`, `-m, --magic-file LIST` or ripgrep's
 * `-A, --after-context <NUM>`.
 */
export function documentedOptions(help: string): DocumentedOptions {
  const long = new Set<string>();
  const short = new Set<string>();
  for (const line of help.split('\n')) {
    // A bare usage line (`Usage: which [-a] args`) is all some programs print.
    if (/^usage:/i.test(line))
      for (const match of line.matchAll(/\[-([A-Za-z0-9]+)\]/g))
        for (const letter of match[1] as string) short.add(letter);
    const spec = /^ {1,8}(-[^ ].*?)(?: {2,}(?![-])|\t|$)/.exec(line)?.[1];
    if (spec === undefined) continue;
    for (const token of spec.split(/,\s*|\s{2,}/)) {
      const longName = /^--([A-Za-z0-9][\w-]*)/.exec(token)?.[1];
      const shortLetter = /^-([A-Za-z0-9.])(?:$| )/.exec(token)?.[1];
      if (longName !== undefined) long.add(longName);
      else if (shortLetter !== undefined) short.add(shortLetter);
    }
  }
  return { long, short };
}

/** Long option names a section-1 manual page mentions (`\-\-name`), or null without a manual. */
export function manualLongOptions(program: string): ReadonlySet<string> | null {
  let page: string;
  try {
    page = execFileSync('man', ['-w', '1', program], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
  if (page === '' || !fs.existsSync(page)) return null;
  const raw = fs.readFileSync(page);
  const text = page.endsWith('.gz') ? zlib.gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return new Set(
    [...text.matchAll(/\\-\\-([a-zA-Z0-9](?:[a-zA-Z0-9_]|\\-)*)/g)].map((match) =>
      (match[1] as string).replace(/\\-/g, '-'),
    ),
  );
}

/** The first line of `program --version`, for the record. */
export function versionLine(program: string): string {
  const result = spawnSync(program, ['--version'], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    timeout: 20_000,
  });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n')[0] ?? '';
}

/**
 * How the installed program reads `--name` given alone, in an empty directory with empty input: 'unknown' when its
 * parser rejects the name, 'required' when it says the option needs a value, otherwise 'accepted'.
 */
export function probeLongOption(program: string, name: string, cwd: string): 'unknown' | 'required' | 'accepted' {
  const result = spawnSync(program, [`--${name}`], {
    cwd,
    input: '',
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    timeout: 5_000,
  });
  // A program still running after 5 s (tail --follow) took the option.
  const said = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (/unrecognized option|invalid option/.test(said)) return 'unknown';
  return /requires an argument/.test(said) ? 'required' : 'accepted';
}
