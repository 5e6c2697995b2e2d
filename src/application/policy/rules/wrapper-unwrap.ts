import type { Word } from '../../shell/shell-ast.js';
import { SHELLS } from '../command-catalog.js';

/**
 * What a blocked wrapper, shell or interpreter would really run. The wrapper stays denied; the inner command is
 * judged too so the reasons name the real danger (`sh -c 'rm -rf /'` reports the shell and the deletion).
 */
export type InnerCommand =
  | { readonly kind: 'argv'; readonly words: readonly Word[] }
  | { readonly kind: 'script'; readonly text: string }
  | { readonly kind: 'code'; readonly language: string; readonly text: string };

interface ArgvWrapper {
  /** Options whose value is the next word. */
  readonly valueOptions?: readonly string[];
  /** Operands consumed before the command (timeout's duration, chroot's directory). */
  readonly skipOperands?: number;
  /** Leading NAME=value operands are environment settings (env); skipped so the command itself is judged. */
  readonly assignments?: boolean;
}

const ARGV_WRAPPERS: Readonly<Record<string, ArgvWrapper>> = {
  env: { valueOptions: ['-u', '--unset', '-C', '--chdir'], assignments: true },
  sudo: {
    valueOptions: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-C',
      '--close-from',
      '-D',
      '--chdir',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-r',
      '--role',
      '-t',
      '--type',
      '-U',
      '--other-user',
      '-T',
      '--command-timeout',
    ],
  },
  doas: { valueOptions: ['-u', '-C'] },
  pkexec: { valueOptions: ['--user'] },
  runuser: { valueOptions: ['-u', '-g', '-G', '--group', '--supp-group'] },
  exec: { valueOptions: ['-a'] },
  command: {},
  builtin: {},
  time: { valueOptions: ['-f', '--format', '-o', '--output'] },
  timeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], skipOperands: 1 },
  nice: { valueOptions: ['-n', '--adjustment'] },
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  nohup: {},
  setsid: {},
  stdbuf: { valueOptions: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  xargs: {
    valueOptions: [
      '-a',
      '--arg-file',
      '-d',
      '--delimiter',
      '-E',
      '-e',
      '--eof',
      '-I',
      '-i',
      '--replace',
      '-L',
      '-l',
      '--max-lines',
      '-n',
      '--max-args',
      '-P',
      '--max-procs',
      '-s',
      '--max-chars',
      '--process-slot-var',
    ],
  },
  busybox: {},
  chroot: { skipOperands: 1 },
  flock: { valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'], skipOperands: 1 },
  taskset: { skipOperands: 1 },
  chrt: { skipOperands: 1 },
  strace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-E'] },
  ltrace: { valueOptions: ['-o', '-e', '-p', '-s', '-u'] },
  unshare: {},
  nsenter: { valueOptions: ['-t', '--target'] },
  'systemd-run': { valueOptions: ['-u', '--unit', '-p', '--property'] },
  parallel: {},
};

/** Interpreters and the option that introduces inline code. */
const INLINE_CODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  python3: ['-c'],
  python2: ['-c'],
  pypy: ['-c'],
  pypy3: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  luajit: ['-e'],
  deno: ['eval'],
};
/** Tools whose first operand is a program. */
const PROGRAM_OPERAND = new Set(['awk', 'gawk', 'mawk', 'nawk', 'sed']);

export function unwrapCommand(executable: string, args: readonly Word[]): InnerCommand | null {
  if (SHELLS.has(executable) || (executable === 'busybox' && args[0] !== undefined && SHELLS.has(args[0].value))) {
    return unwrapShell(executable === 'busybox' ? args.slice(1) : args);
  }
  switch (executable) {
    case 'eval':
      return args.length > 0 ? { kind: 'script', text: args.map((word) => word.value).join(' ') } : null;
    case 'su':
    case 'script':
      return scriptOption(args, ['-c', '--command']);
    case 'watch':
      return watchScript(args);
  }
  const wrapper = ARGV_WRAPPERS[executable];
  if (wrapper) {
    if (executable === 'env') {
      const split = scriptOption(args, ['-S', '--split-string']);
      if (split) return split;
    }
    return unwrapArgv(args, wrapper, executable === 'env');
  }
  const inline = INLINE_CODE_OPTIONS[executable];
  if (inline) {
    const code = optionArgument(args, inline);
    return code === null ? null : { kind: 'code', language: executable, text: code };
  }
  if (PROGRAM_OPERAND.has(executable)) {
    const program = args.find((word) => !word.value.startsWith('-'));
    return program ? { kind: 'code', language: executable, text: program.value } : null;
  }
  return null;
}

function unwrapArgv(args: readonly Word[], wrapper: ArgvWrapper, dashIsOption: boolean): InnerCommand | null {
  let index = 0;
  while (index < args.length) {
    const value = (args[index] as Word).value;
    if (value === '--') {
      index += 1;
      break;
    }
    if (!value.startsWith('-') || (value === '-' && !dashIsOption)) break;
    index += wrapper.valueOptions?.includes(value) ? 2 : 1;
  }
  index += wrapper.skipOperands ?? 0;
  while (wrapper.assignments && index < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((args[index] as Word).value))
    index += 1;
  const words = args.slice(index);
  return words.length > 0 ? { kind: 'argv', words } : null;
}

/** `sh -c SCRIPT`, `bash -lc SCRIPT`: a `c` in any short-option cluster makes the first operand the script. */
function unwrapShell(args: readonly Word[]): InnerCommand | null {
  let command = false;
  for (let index = 0; index < args.length; index += 1) {
    const value = (args[index] as Word).value;
    if (value === '--' || value === '-') {
      const script = args[index + 1];
      return command && script ? { kind: 'script', text: script.value } : null;
    }
    if (
      value === '-o' ||
      value === '+o' ||
      value === '-O' ||
      value === '+O' ||
      value === '--rcfile' ||
      value === '--init-file'
    ) {
      index += 1;
      continue;
    }
    if (value.startsWith('-') && !value.startsWith('--') && value.slice(1).includes('c')) command = true;
    if (value === '--command') command = true;
    if (!value.startsWith('-') && !value.startsWith('+')) return command ? { kind: 'script', text: value } : null;
  }
  return null;
}

function scriptOption(args: readonly Word[], names: readonly string[]): InnerCommand | null {
  const text = optionArgument(args, names);
  return text === null ? null : { kind: 'script', text };
}

function watchScript(args: readonly Word[]): InnerCommand | null {
  const valueOptions = ['-n', '--interval', '-q', '--equexit'];
  let index = 0;
  while (index < args.length && (args[index] as Word).value.startsWith('-')) {
    index += valueOptions.includes((args[index] as Word).value) ? 2 : 1;
  }
  const rest = args.slice(index).map((word) => word.value);
  return rest.length > 0 ? { kind: 'script', text: rest.join(' ') } : null;
}

/** The value of `-c VALUE`, `--command=VALUE` or `-cVALUE`. */
function optionArgument(args: readonly Word[], names: readonly string[]): string | null {
  for (const [index, word] of args.entries()) {
    const value = word.value;
    if (names.includes(value)) return args[index + 1]?.value ?? null;
    for (const name of names) {
      if (name.startsWith('--') && value.startsWith(`${name}=`)) return value.slice(name.length + 1);
      if (!name.startsWith('--') && name.length === 2 && value.startsWith(name) && value.length > 2)
        return value.slice(2);
    }
  }
  return null;
}
