/**
 * The built-in command surface of the default policy (seed `policy.py` sets, widened with harmless tools).
 *
 * HARD FLOOR: the commands for which `isOnHardFloor` is true are denied in every mode, and a policy file can
 * neither make them read-only nor make them approvable. They are the ones that defeat any command-level policy:
 * shells and interpreters (they run arbitrary code), command runners and wrappers (they hide the real command),
 * privilege tools, network clients, package installers that fetch and run code, and system administration
 * (processes, services, disks, users). Writing, development and git commands keep their own rules and cannot be
 * re-labelled read-only either; see `policy-document.ts`.
 */

/** Read-only commands: seed set plus text and information tools that cannot write or run other programs. */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  // seed
  'cat',
  'df',
  'du',
  'find',
  'git',
  'grep',
  'head',
  'ls',
  'pwd',
  'rg',
  'stat',
  'tail',
  'wc',
  // harmless additions; their options are read through options/tables/ and judged in rules/read-only-rules.ts
  'echo',
  'printf',
  'true',
  'false',
  'sort',
  'uniq',
  'cut',
  'tr',
  'basename',
  'dirname',
  'date',
  'whoami',
  'id',
  'uname',
  'which',
  'file',
  'diff',
  'cmp',
  'tree',
  'nl',
  'tac',
  'rev',
  'sha256sum',
  'md5sum',
  'test',
  '[',
]);

/** Commands that change workspace files (seed set plus tee, ln -s and chmod). */
export const WRITE_COMMANDS: ReadonlySet<string> = new Set(['cp', 'mkdir', 'mv', 'rm', 'touch', 'tee', 'ln', 'chmod']);

/** Build and test tools: they run project-defined code (scripts, Makefiles, tests). */
export const DEVELOPMENT_COMMANDS: ReadonlySet<string> = new Set([
  'cargo',
  'go',
  'make',
  'npm',
  'pnpm',
  'pytest',
  'ruff',
  'uv',
  'yarn',
]);

/** Commands allowed but bounded only by the timeout: always reviewed unless trusted. */
export const LONG_RUNNING_COMMANDS: ReadonlySet<string> = new Set(['sleep']);

/** Shell reserved words and bash keywords: control structures the parser does not model. */
export const SHELL_KEYWORDS: ReadonlySet<string> = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  'function',
  'select',
  '[[',
  ']]',
  'coproc',
  '!',
  '{',
  '}',
]);

/** Wrappers whose own arguments name another command; the policy unwraps them to judge (and report) it. */
const COMMAND_WRAPPERS: ReadonlySet<string> = new Set([
  'env',
  'sudo',
  'doas',
  'su',
  'exec',
  'command',
  'builtin',
  'time',
  'timeout',
  'nice',
  'ionice',
  'nohup',
  'setsid',
  'stdbuf',
  'xargs',
  'watch',
  'busybox',
  'eval',
  'source',
  '.',
  'chroot',
  'unshare',
  'nsenter',
  'flock',
  'script',
  'runuser',
  'pkexec',
  'taskset',
  'chrt',
  'strace',
  'ltrace',
  'parallel',
  'systemd-run',
  'at',
  'batch',
]);

/** Command-line shells: `-c` takes a script, which is parsed and judged. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'pdksh',
  'ash',
  'csh',
  'tcsh',
  'fish',
  'rbash',
  'yash',
  'pwsh',
]);

/** Language interpreters and programmable tools (awk and sed can run programs and write files). */
const INTERPRETERS = [
  'node',
  'nodejs',
  'deno',
  'bun',
  'perl',
  'ruby',
  'irb',
  'php',
  'lua',
  'luajit',
  'tclsh',
  'wish',
  'expect',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'gdb',
  'lldb',
  'julia',
  'rscript',
  'r',
  'osascript',
  'java',
  'jshell',
  'vi',
  'vim',
  'nvim',
  'ex',
  'ed',
  'emacs',
  'nano',
  'less',
  'more',
  'man',
];

/** Families whose versioned names (`python3.12`, `pip3`, `perl5.36`) are covered too. */
const VERSIONED_FAMILIES = ['python', 'pypy', 'pip', 'perl', 'ruby', 'php', 'lua', 'node', 'tclsh'];

export const NETWORK_TOOLS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'nc',
  'netcat',
  'ncat',
  'socat',
  'telnet',
  'ftp',
  'sftp',
  'tftp',
  'scp',
  'ssh',
  'rsync',
  'aria2c',
  'openssl',
  'lynx',
  'w3m',
  'links',
]);

const PACKAGE_RUNNERS = [
  'pip',
  'pipx',
  'npx',
  'pnpx',
  'uvx',
  'gem',
  'apt',
  'apt-get',
  'dpkg',
  'brew',
  'yum',
  'dnf',
  'apk',
  'snap',
];

const SYSTEM_TOOLS = [
  // archivers and terminal multiplexers that can run programs (tar --to-command, zip -TT, tmux new-session)
  'tar',
  'zip',
  'tmux',
  'screen',
  'sudoedit',
  'visudo',
  'dd',
  'fdisk',
  'mkfs',
  'parted',
  'mkswap',
  'swapon',
  'mount',
  'umount',
  'docker',
  'podman',
  'kubectl',
  'systemctl',
  'service',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'init',
  'kill',
  'pkill',
  'killall',
  'crontab',
  'chown',
  'chgrp',
  'chattr',
  'setfacl',
  'insmod',
  'modprobe',
  'iptables',
  'useradd',
  'usermod',
  'passwd',
  'chpasswd',
  'printenv',
  'envsubst',
];

const ALWAYS_BLOCKED: ReadonlySet<string> = new Set([
  ...COMMAND_WRAPPERS,
  ...SHELLS,
  ...INTERPRETERS,
  ...NETWORK_TOOLS,
  ...PACKAGE_RUNNERS,
  ...SYSTEM_TOOLS,
  ...VERSIONED_FAMILIES,
]);

/** The hard floor by family, for the generated command page (docs/commands.md). */
export const HARD_FLOOR_FAMILIES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'command runners and wrappers': [...COMMAND_WRAPPERS],
  shells: [...SHELLS],
  'interpreters and programmable tools': INTERPRETERS,
  'versioned families (any version suffix, e.g. python3.12)': VERSIONED_FAMILIES,
  'network tools': [...NETWORK_TOOLS],
  'package installers and runners': PACKAGE_RUNNERS,
  'system tools (also any mkfs.*)': SYSTEM_TOOLS,
});

/** True for commands on the hard floor: denied in every mode whatever a policy file says. Case-insensitive. */
export function isOnHardFloor(name: string): boolean {
  const lower = name.toLowerCase();
  if (ALWAYS_BLOCKED.has(lower)) return true;
  if (lower.startsWith('mkfs.')) return true;
  const family = lower.replace(/[0-9.]+$/, '');
  return VERSIONED_FAMILIES.includes(family);
}
