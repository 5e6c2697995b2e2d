import { OPTION_TABLES } from '../../../src/application/policy/options/program-options';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';
import { PolicyWorkspace } from './policy-workspace';

/**
 * The dangerous set: from each catalogued program's manual and --help, every option and operand form that runs a
 * program, writes a file, reads a list of files, follows symbolic links or changes the system. Each is refused or
 * held for approval in inspect, confirm and trusted mode, written out in full and as every prefix the program would
 * take for it. Writes aim outside the workspace: inside it, writing is what confirm approves and trusted allows.
 * The workspace has README.md, src/a.txt, etc-link -> /etc and inner-link -> src.
 */
const DANGEROUS: Readonly<Record<string, readonly string[]>> = {
  'runs a program': [
    'sort --compress-program=gzip README.md',
    'rg --pre=cat x src',
    'rg --hostname-bin=id x src',
    'rg -z x src',
    'rg --search-zip x src',
    'file -z README.md',
    'file -Z README.md',
    'file --uncompress README.md',
    'file --uncompress-noreport README.md',
    'diff -l README.md src/a.txt',
    'diff --paginate README.md src/a.txt',
    'find . -exec cat {} +',
    'find . -execdir cat {} +',
    'find . -ok cat {} +',
    'find . -okdir cat {} +',
    'git diff --ext-diff',
    'git log --textconv',
    'git -c core.pager=sh log',
    'git --exec-path=. status',
    'git -p log',
  ],
  'writes a file': [
    'sort -o /tmp/x README.md',
    'sort --output=/tmp/x README.md',
    'sort -T /tmp README.md',
    'sort --temporary-directory=/tmp README.md',
    'tree -o /tmp/x',
    'tree -R',
    'file -C -m README.md',
    'file --compile --magic-file=README.md',
    'find . -fprint /tmp/x',
    'find . -fprint0 /tmp/x',
    'find . -fls /tmp/x',
    'find . -fprintf /tmp/x %p',
    'find . -delete',
    'git diff --output=/tmp/x',
    'uniq README.md /tmp/x',
    'tee /tmp/x',
    'tee --append /tmp/x',
    'cp README.md /tmp/x',
    'cp --target-directory=/tmp README.md',
    'mv README.md /tmp/x',
    'touch /tmp/x',
    'mkdir /tmp/x',
    'ln -s README.md /tmp/x',
    'ln README.md x',
    'chmod 644 /tmp/x',
    'rm /tmp/x',
    'rm -rf .',
    'echo x > /tmp/x',
    'cp -s README.md x',
    'cp --symbolic-link README.md x',
  ],
  'reads a list of files': [
    'du --files0-from=list',
    'wc --files0-from=list',
    'sort --files0-from=list',
    'find -files0-from list',
    'file -f list',
    'file --files-from=list',
    'md5sum -c sums',
    'md5sum --check sums',
    'sha256sum -c sums',
    'sha256sum --check sums',
    'tree --fromfile list',
    'date -f /etc/hostname',
    'date --file=/etc/hostname',
    'grep -f /etc/hostname src',
    'diff --from-file=/etc/hostname README.md',
    'diff --exclude-from=/etc/hostname src src',
    'du --exclude-from=/etc/hostname',
    'rg --ignore-file=/etc/hostname x src',
  ],
  'follows symbolic links': [
    'ls -L etc-link',
    'ls --dereference src',
    'ls -H etc-link',
    'ls --dereference-command-line etc-link',
    'du -L src',
    'du --dereference src',
    'du -D etc-link',
    'du --dereference-args etc-link',
    'grep -R x .',
    'grep --dereference-recursive x .',
    'rg -L x .',
    'rg --follow x .',
    'tree -l',
    'cp -L README.md src/',
    'cp -H README.md src/',
    'cp --dereference README.md src/',
    'diff -r src inner-link',
    'diff --recursive src inner-link',
    'file -L README.md',
    'file --dereference README.md',
    'find -L .',
    'find -H .',
    'find . -follow',
    'stat -L etc-link',
    'stat --dereference etc-link',
    'cat etc-link/hostname',
  ],
  'changes the system': [
    'date -s 2030-01-01',
    'date --set=2030-01-01',
    'date 010100002030',
    'chmod u+s README.md',
    'chmod 4755 README.md',
    'mkdir -m 4755 d',
    'mkdir --mode=4755 d',
    'rm -r /',
    'touch --reference=/etc/hostname README.md',
  ],
};
const MODES: readonly PolicyMode[] = ['inspect', 'confirm', 'trusted'];

/** The line with its first `--name` written as each prefix the program takes for it (getopt_long tables only). */
function abbreviations(line: string): string[] {
  const words = line.split(' ');
  const table = OPTION_TABLES.get(words[0] as string);
  if (table === undefined || table.abbreviation !== 'unique_prefix') return [];
  return words.flatMap((word, index) => {
    const match = /^--([a-z0-9-]+)(=.*)?$/.exec(word);
    if (!match) return [];
    const name = match[1] as string;
    const prefixes = Array.from({ length: name.length - 1 }, (_, length) => name.slice(0, length + 1)).filter(
      (prefix) => Object.keys(table.long).filter((other) => other.startsWith(prefix)).length === 1,
    );
    return prefixes.map((prefix) =>
      [...words.slice(0, index), `--${prefix}${match[2] ?? ''}`, ...words.slice(index + 1)].join(' '),
    );
  });
}

describe('the dangerous set is refused or held for approval in inspect, confirm and trusted', () => {
  let workspace: PolicyWorkspace;
  beforeAll(() => {
    workspace = new PolicyWorkspace();
  });
  afterAll(() => {
    workspace.cleanup();
  });

  it.each(Object.entries(DANGEROUS))('%s', (_effect, lines) => {
    const all = lines.flatMap((line) => [line, ...abbreviations(line)]);
    const allowed = MODES.flatMap((mode) =>
      all.filter((line) => workspace.evaluate(line, { mode }).verdict === 'allow').map((line) => `${mode}: ${line}`),
    );
    expect(allowed).toEqual([]);
    expect(all.length).toBeGreaterThan(lines.length);
  });
});
