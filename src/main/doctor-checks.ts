import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { CliRequest, DoctorCheck } from '../adapters/cli/cli-services.js';
import { withSetupInput } from '../adapters/sandbox/bubblewrap-confinement.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import { loadConfig, type Config } from './config.js';
import { buildContainer, shutdownTerminal } from './container.js';
import { loadPolicySettings } from './policy-file.js';
import { readStateKey, RECEIPT_KEY_FILE } from './receipt-key.js';
import { TYPES } from './types.js';

type Check = DoctorCheck;

const MINIMUM_NODE = [20, 19] as const;
const PROBE_TIMEOUT_MS = 10_000;

function nodeCheck(version: string): Check {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const ok = major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
  return { ok, detail: `${version} (needs >= ${MINIMUM_NODE.join('.')})`, required: true };
}

function accessCheck(dir: string, mode: number, what: string, required: boolean): Check {
  try {
    accessSync(dir, mode);
    return { ok: true, detail: `${dir} is ${what}`, required };
  } catch (error) {
    return {
      ok: false,
      detail: `${dir} is not ${what} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      required,
    };
  }
}

/** The namespaces a command must not share with the server. */
const OWN_NAMESPACES = ['user', 'pid', 'mnt', 'net', 'ipc', 'uts'] as const;

function serverNamespace(name: string): string | undefined {
  try {
    return readlinkSync(`/proc/self/ns/${name}`);
  } catch {
    return undefined;
  }
}

/** What the probe script printed, one `KIND name value` line each. */
function probeLines(stdout: string, kind: string): Array<[string, string]> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(`${kind} `))
    .map((line) => {
      const [, name = '', value = ''] = line.split(' ');
      return [name, value];
    });
}

const PROBE_SCRIPT = (outsideFile: string): string =>
  [
    `if touch '${outsideFile}' 2>/dev/null; then echo WRITE-OUTSIDE-OK; fi`,
    "grep -E '^Cap(Prm|Eff|Bnd|Amb|Inh):' /proc/self/status | tr -d ':\t' | sed 's/^Cap\\([A-Za-z]*\\)/CAP \\1 /'",
    `for ns in ${OWN_NAMESPACES.join(' ')}; do echo "NS $ns $(readlink /proc/self/ns/$ns)"; done`,
    "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sed 's/^/IF /'",
  ].join('\n');

/**
 * Starts one real sandbox with the server's profile, running a script that tries to create a file outside the
 * workspace, reports its capability sets and namespaces, and lists the network interfaces it can see. Passes when
 * the sandbox started, the write failed (checked on the host too), every capability set is empty, each namespace is
 * another than the server's, and only the loopback interface exists (network off, or filtered through the proxy).
 */
function sandboxCheck(config: Config, confinement: CommandConfinement): Check {
  // An explicit opt-out is the operator's choice: reported, not a failure.
  if (!config.sandboxEnabled)
    return { ok: false, detail: 'TERM_MCP_SANDBOX=off: commands run without the OS sandbox', required: false };
  const readiness = confinement.readiness();
  if (!readiness.ready) return { ok: false, detail: `${readiness.reason}. ${readiness.fix}`, required: true };
  // /var/tmp: writable on the host and, unlike /tmp (private inside), the same directory inside the sandbox.
  const outsideDir = mkdtempSync(
    path.join(existsSync('/var/tmp') ? '/var/tmp' : path.dirname(config.workspaceRoot), '.term-mcp-doctor-'),
  );
  const outsideFile = path.join(outsideDir, 'probe');
  try {
    const launch = confinement.confine({
      launch: { kind: 'shell', script: PROBE_SCRIPT(outsideFile) },
      cwd: config.workspaceRoot,
      environment: { PATH: '/usr/bin:/bin' },
    });
    const result = withSetupInput(launch.setupInput, (descriptor) =>
      spawnSync(launch.file, [...launch.args], {
        cwd: launch.cwd,
        env: launch.environment,
        encoding: 'utf8',
        timeout: PROBE_TIMEOUT_MS,
        stdio: ['ignore', 'pipe', 'pipe', descriptor[0] ?? 'ignore', 'pipe'],
      }),
    );
    launch.finish?.();
    if (result.status !== 0)
      return {
        ok: false,
        detail: `the probe sandbox failed (exit ${String(result.status)}): ${result.stderr.trim()}`,
        required: true,
      };
    const interfaces = probeLines(result.stdout, 'IF').map(([name]) => name);
    const capabilities = probeLines(result.stdout, 'CAP');
    const heldCapabilities = capabilities
      .filter(([, value]) => !/^0+$/.test(value))
      .map(([name, value]) => `Cap${name} ${value}`);
    const sharedNamespaces = OWN_NAMESPACES.filter((name) => {
      const inside = probeLines(result.stdout, 'NS').find(([nsName]) => nsName === name)?.[1];
      return inside === undefined || inside === '' || inside === serverNamespace(name);
    });
    const wroteOutside = result.stdout.includes('WRITE-OUTSIDE-OK') || existsSync(outsideFile);
    const summary = confinement.summary();
    // Off or filtered, the sandbox has a network namespace of its own (loopback only); filtered adds the proxy bridge.
    const filtered = summary.sandbox === 'bubblewrap' && summary.network === 'filtered';
    const networkIsolated = interfaces.every((name) => name === 'lo');
    const capabilitiesEmpty = capabilities.length > 0 && heldCapabilities.length === 0;
    const ok = !wroteOutside && networkIsolated && capabilitiesEmpty && sharedNamespaces.length === 0;
    const isolation = filtered
      ? `network filtered (loopback only, out through the proxy to ${String(summary.allowed_domains?.length ?? 0)} allowed domains)`
      : 'network off (loopback only)';
    const detail = [
      wroteOutside ? 'a write outside the workspace SUCCEEDED' : 'a write outside the workspace failed',
      capabilitiesEmpty
        ? 'no capabilities'
        : `capabilities HELD: ${heldCapabilities.join(', ') || 'unknown (no Cap lines)'}`,
      sharedNamespaces.length === 0
        ? `own ${OWN_NAMESPACES.join(', ')} namespaces`
        : `namespaces SHARED with the server: ${sharedNamespaces.join(', ')}`,
      networkIsolated ? isolation : `network NOT isolated: ${interfaces.join(', ')}`,
    ].join('; ');
    return { ok, detail, required: true };
  } finally {
    rmSync(outsideDir, { recursive: true, force: true });
  }
}

/** Where receipts' signing key comes from, and where the persistent one lives (read only: doctor creates nothing). */
function receiptKeyCheck(config: Config): Check {
  if (config.receiptKey !== undefined)
    return { ok: true, detail: 'configured (TERM_MCP_RECEIPT_KEY, AUTH_TOKEN or TERM_MCP_TOKEN)', required: false };
  if (config.stateDir === undefined) {
    return {
      ok: true,
      detail:
        'per process: the default state directory is inside the workspace, so no key is kept (set TERM_MCP_STATE_DIR outside it)',
      required: false,
    };
  }
  const file = path.join(config.stateDir, RECEIPT_KEY_FILE);
  try {
    const found = readStateKey(config.stateDir) !== undefined;
    return {
      ok: true,
      detail: found ? `persistent, in ${file}` : `persistent, to be created at first start in ${file}`,
      required: false,
    };
  } catch (error) {
    return { ok: false, detail: `${file}: ${error instanceof Error ? error.message : String(error)}`, required: false };
  }
}

/**
 * The checks of `term-mcp doctor` (the CLI adapter prints them): Node, the configuration, the workspace, the receipt
 * key, the token, the chat key, and one real sandbox probe with the confinement the server's container resolves.
 */
export async function doctorChecks(request: CliRequest, nodeVersion: string): Promise<Record<string, Check>> {
  const checks: Record<string, Check> = { node: nodeCheck(nodeVersion) };
  let config: Config;
  try {
    config = loadConfig(request.env, request.flags, request.cwd);
    // The mode the server would run in: APPROVAL_MODE or --mode, else the policy file's, else inspect.
    checks.configuration = {
      ok: true,
      detail: `workspace ${config.workspaceRoot}, mode ${loadPolicySettings(config).mode}`,
      required: true,
    };
  } catch (error) {
    checks.configuration = {
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
      required: true,
    };
    return checks;
  }
  checks.workspace_read = accessCheck(config.workspaceRoot, constants.R_OK | constants.X_OK, 'readable', true);
  checks.workspace_write = accessCheck(
    config.workspaceRoot,
    constants.W_OK,
    'writable (needed by confirm, trusted and sandboxed)',
    false,
  );
  checks.receipt_key = receiptKeyCheck(config);
  checks.token = {
    ok: config.token !== undefined,
    detail:
      config.token !== undefined
        ? 'TERM_MCP_TOKEN is set'
        : 'TERM_MCP_TOKEN is not set (term-mcp http then prints a one-time token)',
    required: false,
  };
  checks.deepseek_key = {
    ok: config.deepseekApiKey !== undefined,
    detail:
      config.deepseekApiKey !== undefined
        ? 'DEEPSEEK_API_KEY is set'
        : 'DEEPSEEK_API_KEY is not set (the planning chat is off)',
    required: false,
  };
  try {
    const container = buildContainer(config);
    checks.sandbox = sandboxCheck(config, container.get<CommandConfinement>(TYPES.CommandConfinement));
    // With ALLOW_NETWORK the container started the filtering proxy: stop it (and remove its socket directory).
    await shutdownTerminal(container);
  } catch (error) {
    checks.sandbox = { ok: false, detail: error instanceof Error ? error.message : String(error), required: true };
  }
  return checks;
}
