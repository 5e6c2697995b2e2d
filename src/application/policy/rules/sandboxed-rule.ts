import { isAtOrBelow } from '../../../domain/workspace/path-containment.js';
import { NETWORK_TOOLS, READ_ONLY_COMMANDS, WRITE_COMMANDS } from '../command-catalog.js';
import type { Word } from '../../shell/shell-ast.js';
import { splitArguments } from './arguments.js';
import { requestsNetwork } from './development-rule.js';
import { allow, deny, needsApproval, type JudgeContext, type Judgement } from './judgement.js';
import { findPathEscape, findProtectedTarget, outputTargets } from './path-rule.js';
import type { CommandShape } from './shell-feature-rule.js';
import { judgeBroadDeletion } from './write-rule.js';

/**
 * Sandboxed mode: the bubblewrap sandbox (workspace writable, everything else read-only or hidden, no network unless
 * ALLOW_NETWORK, no new privileges) bounds what a program does, so the policy no longer has to understand a command
 * to let it run. What stays here is what the sandbox does not make harmless or what a line visibly asks for beyond it.
 */

/**
 * The sandboxed floor: denied whatever the line looks like. Inside the sandbox these fail anyway (no_new_privs,
 * no capabilities, a read-only host); denying them says so up front and keeps an obviously hostile line out of the
 * ledger. Privilege changes and namespace tools, mounts, host administration, and container engines (whose socket
 * would be a way out of the sandbox; see docs/security.md).
 */
const PRIVILEGE_TOOLS = [
  'sudo',
  'su',
  'doas',
  'pkexec',
  'runuser',
  'sudoedit',
  'visudo',
  'chroot',
  'setpriv',
  'unshare',
  'nsenter',
  'capsh',
  'setcap',
  'newgrp',
  'sg',
  'systemd-run',
  'machinectl',
  'bwrap',
  'firejail',
  'mount',
  'umount',
  'fusermount',
  'fusermount3',
];
const HOST_ADMINISTRATION = [
  'fdisk',
  'parted',
  'mkswap',
  'swapon',
  'swapoff',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'init',
  'telinit',
  'insmod',
  'rmmod',
  'modprobe',
  'iptables',
  'ip6tables',
  'nft',
  'useradd',
  'usermod',
  'userdel',
  'groupadd',
  'passwd',
  'chpasswd',
  'systemctl',
  'service',
  'crontab',
  'at',
  'batch',
  'apt',
  'apt-get',
  'dpkg',
  'yum',
  'dnf',
  'apk',
  'snap',
  'brew',
  'docker',
  'podman',
  'kubectl',
  'nerdctl',
  'ctr',
  'lxc',
];
const SANDBOXED_FLOOR: ReadonlySet<string> = new Set([...PRIVILEGE_TOOLS, ...HOST_ADMINISTRATION]);
const PRIVILEGE_SET: ReadonlySet<string> = new Set(PRIVILEGE_TOOLS);

/** The sandboxed floor by family, for docs/commands.md. */
export const SANDBOXED_FLOOR_FAMILIES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'privilege changes, namespaces and mounts': PRIVILEGE_TOOLS,
  'host administration, system packages and containers (also any mkfs.*)': HOST_ADMINISTRATION,
});

const BASH_ONLY_REDIRECTIONS: ReadonlySet<string> = new Set(['&>', '&>>', '<<<']);

/** Programs that download and run packages whenever they are used. */
const PACKAGE_RUNNERS: ReadonlySet<string> = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx']);
const PIP_NETWORK = new Set(['install', 'download', 'wheel']);
const GEM_NETWORK = new Set(['install', 'update', 'fetch', 'push']);
const GIT_NETWORK = new Set(['fetch', 'pull', 'push', 'clone', 'ls-remote', 'submodule', 'archive']);
/** git global options that take a value (so the subcommand is found after them). */
const GIT_VALUE_OPTIONS = new Set([
  '-c',
  '-C',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--exec-path',
]);

/** True for a command on the sandboxed floor (case-insensitive, by the program's base name). */
export function isOnSandboxedFloor(name: string): boolean {
  const lower = name.toLowerCase();
  return SANDBOXED_FLOOR.has(lower) || lower.startsWith('mkfs');
}

/** The base name a command word runs: `/usr/bin/sudo` and `sudo` are the same program to the floor. */
export function programName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/**
 * Judges one simple command in sandboxed mode. Order: the floor (privilege, host, policy-file denials, the server's own
 * files, catastrophic deletion, git configuration), then what needs more than the sandbox gives (network, paths
 * outside the workspace, a program outside it, a name only known when it runs, policy-file approvals); then allow.
 */
export function judgeSandboxedCommand(command: CommandShape, context: JudgeContext): Judgement {
  const nameWord = command.words[0];
  const args = command.words.slice(1);
  const name = nameWord === undefined ? null : nameWord.value;
  const program = name === null ? null : programName(name);
  if (nameWord !== undefined && nameWord.value === '' && nameWord.expansions.length === 0) {
    return deny('missing_executable', 'command must contain an executable');
  }
  if (program !== null && nameWord?.expansions.length === 0) {
    if (isOnSandboxedFloor(program)) {
      const privilege = PRIVILEGE_SET.has(program.toLowerCase());
      return deny(
        privilege ? 'privilege_change' : 'host_administration',
        privilege
          ? `${program} changes privileges, namespaces or mounts and is never allowed`
          : `${program} administers the host and is never allowed`,
      );
    }
    if (context.settings.deniedCommands.includes(program))
      return deny('policy_denied_command', `${program} is denied by the policy file`);
  }
  const cwd = context.cwd.startsWith('/') ? context.inspector.resolve(context.cwd, '') : null;
  if (!cwd || !cwd.inside || !cwd.isDirectory)
    return deny('cwd_outside_workspace', 'working directory is outside the configured workspace');
  const bashOnly = command.redirections.find((redirection) => BASH_ONLY_REDIRECTIONS.has(redirection.operator));
  // The line runs under dash, which reads `ls &> f` as `ls &` then `> f`: refused, as in every mode.
  if (bashOnly) return deny('unsupported_redirection', `redirection ${bashOnly.operator} is not supported by /bin/sh`);
  const serverFile = findServerFile(command, context);
  if (serverFile !== null)
    return deny('server_files', `the server's own policy, configuration and audit log are off limits: ${serverFile}`);
  if (program !== null) {
    const broad = judgeBroadDeletion(program, args, context);
    if (broad) return broad;
  }
  const written = [
    ...outputTargets(command.redirections),
    ...(program !== null && WRITE_COMMANDS.has(program) ? splitArguments(args).operands.map((word) => word.value) : []),
  ];
  const protectedTarget = findProtectedTarget(written, context);
  if (protectedTarget !== null) {
    // The sandbox keeps .git/config and .git/hooks read-only in every mode, so an approval could not make this work.
    return deny('protected_path', `git configuration and hooks stay read-only inside the sandbox: ${protectedTarget}`);
  }
  const network = program === null ? null : networkRequest(program.toLowerCase(), args);
  if (network !== null) {
    const facts = { networkRequested: true, executesProjectCode: true };
    if (!context.settings.allowNetwork)
      return deny(
        'network_disabled',
        `${network} needs the network, which is off in the sandbox (ALLOW_NETWORK)`,
        facts,
      );
    return needsApproval('high', 'network_request', `${network} reaches the network`, facts);
  }
  return judgeBeyondWorkspace(command, program, context);
}

/** Reads, writes or programs outside the workspace, and names the policy cannot read: an approval. */
function judgeBeyondWorkspace(command: CommandShape, program: string | null, context: JudgeContext): Judgement {
  const nameWord = command.words[0];
  const facts = { executesProjectCode: program === null || !READ_ONLY_COMMANDS.has(program) };
  const escape = findPathEscape(command.words.slice(1), command.redirections, context);
  if (escape !== null)
    return needsApproval('high', 'path_outside_workspace', `path outside the workspace: ${escape}`, facts);
  if (nameWord !== undefined && nameWord.expansions.length > 0) {
    return needsApproval(
      'high',
      'dynamic_executable',
      `the program is only known when the line runs: ${nameWord.raw}`,
      facts,
    );
  }
  if (nameWord !== undefined && nameWord.value.includes('/') && !runsFromTrustedPlace(nameWord.value, context)) {
    return needsApproval('high', 'path_outside_workspace', `program outside the workspace: ${nameWord.value}`, facts);
  }
  if (program !== null && context.settings.approvalCommands.includes(program)) {
    return needsApproval(
      'medium',
      'policy_requires_approval',
      `the policy file requires approval for ${program}`,
      facts,
    );
  }
  const risk = program !== null && READ_ONLY_COMMANDS.has(program) ? 'low' : 'medium';
  return allow(
    risk,
    'sandboxed_command',
    'runs inside the sandbox: workspace writable, rest of the system read-only, no network',
    facts,
  );
}

/**
 * A program given by path runs from the workspace, or is the very file the trusted PATH finds under its name (compared
 * with symlinks followed: `/bin/sh` and `/usr/bin/sh` are the same program on a merged /usr).
 */
function runsFromTrustedPlace(programPath: string, context: JudgeContext): boolean {
  const facts = context.inspector.resolve(context.cwd, programPath);
  if (facts.inside) return true;
  const found = context.inspector.findExecutable(programName(programPath));
  return found !== null && context.inspector.resolve(context.cwd, found).absolute === facts.absolute;
}

/** Every literal word of the command (and each `--opt=value` value) that resolves to the server's own files. */
export function findServerFile(command: CommandShape, context: JudgeContext): string | null {
  const files = context.settings.serverFiles ?? [];
  if (files.length === 0) return null;
  const words = [...command.words, ...command.assignments, ...command.redirections.map((r) => r.target)];
  for (const word of words) {
    const candidates = [word.value, word.value.slice(word.value.indexOf('=') + 1)].filter((value) => value !== '');
    for (const candidate of candidates) {
      const absolute = context.inspector.resolve(context.cwd, candidate).absolute;
      if (files.some((file) => isAtOrBelow(file, absolute))) return word.value;
    }
  }
  return null;
}

/** What a line visibly asks of the network, or null. */
function networkRequest(program: string, args: readonly Word[]): string | null {
  if (NETWORK_TOOLS.has(program)) return program;
  if (PACKAGE_RUNNERS.has(program)) return `${program} (downloads packages)`;
  if (requestsNetwork(program, args))
    return `${program} ${args.find((word) => !word.value.startsWith('-'))?.value ?? ''}`.trim();
  const values = args.map((word) => word.value);
  if (/^pip[0-9.]*$/.test(program) && values.some((value) => PIP_NETWORK.has(value))) return `${program} install`;
  if (/^python[0-9.]*$/.test(program) && values.includes('pip') && values.some((value) => PIP_NETWORK.has(value)))
    return `${program} -m pip`;
  if (program === 'gem' && values.some((value) => GEM_NETWORK.has(value))) return 'gem';
  if (program === 'git') {
    const subcommand = gitSubcommand(values);
    if (subcommand !== null && GIT_NETWORK.has(subcommand)) return `git ${subcommand}`;
  }
  return null;
}

function gitSubcommand(values: readonly string[]): string | null {
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] as string;
    if (GIT_VALUE_OPTIONS.has(value)) index += 1;
    else if (!value.startsWith('-')) return value;
  }
  return null;
}
