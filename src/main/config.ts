import { accessSync, constants, opendirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigurationError } from '../domain/errors.js';
import { refuseInsideWorkspace, resolveStateDirectory } from './state-directory.js';
import { allowlistEntryProblem, DEFAULT_ALLOWED_DOMAINS } from '../domain/execution/network-allowlist.js';
import { POLICY_MODES } from '../domain/policy/policy-types.js';

/**
 * Configuration, parsed once at start-up from the environment and CLI flags (flags win), validated with zod,
 * then frozen. Nothing reads `process.env` after this. Every variable is listed in docs/configuration.md.
 * Seed-compatible names (AUTH_TOKEN, APPROVAL_MODE, COMMAND_TIMEOUT, ...) are accepted as they are.
 */

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const seconds = z.coerce.number().positive();
const positiveInt = z.coerce.number().int().positive();
/** Our levels, plus the seed's Python names (DEBUG, WARNING, CRITICAL) mapped onto them. */
const LOG_LEVEL_ALIASES: Record<string, 'info' | 'warn' | 'error'> = {
  debug: 'info',
  info: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  critical: 'error',
};
const logLevel = z
  .string()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(Object.keys(LOG_LEVEL_ALIASES) as [string, ...string[]]))
  .transform((v) => LOG_LEVEL_ALIASES[v] ?? 'info');
const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);
/** Comma-separated hosts and `*.domain` wildcards; each entry is checked, the first bad one is named. */
const domainList = csv.superRefine((entries, context) => {
  for (const entry of entries) {
    const problem = allowlistEntryProblem(entry);
    if (problem !== undefined) {
      context.addIssue({ code: 'custom', message: `${entry}: ${problem}` });
      return;
    }
  }
});

/**
 * Toolchains that commonly live in a home (version managers, language toolchains, user-installed binaries): read-only
 * inside the sandbox though the home is hidden. None holds credentials; ~/.cargo and ~/.local are allowed only in
 * their bin/ (their other files include registry tokens and application data).
 */
export const DEFAULT_HOME_ALLOW_LIST = [
  '.cargo/bin',
  '.rustup',
  '.nvm',
  '.volta',
  '.pyenv',
  '.local/bin',
  'go/bin',
  '.deno/bin',
  '.bun/bin',
] as const;
/** Comma-separated paths relative to a home, without `..`; empty turns the allow list off. */
const homeAllowList = csv.superRefine((entries, context) => {
  for (const entry of entries) {
    if (path.isAbsolute(entry) || entry.split('/').some((part) => part === '..' || part === '.')) {
      context.addIssue({
        code: 'custom',
        message: `${entry}: must be a path relative to the home directory, without . or ..`,
      });
      return;
    }
  }
});

/** One row per setting: its key, the environment variable(s) that set it (first wins), an optional flag. */
const SETTINGS = {
  workspaceRoot: { env: ['WORKSPACE_ROOT'], flag: 'workspace', schema: z.string().min(1) },
  policyFile: { env: ['TERM_MCP_POLICY'], flag: 'policy', schema: z.string().min(1).optional() },
  policyMode: { env: ['APPROVAL_MODE', 'TERM_MCP_MODE'], flag: 'mode', schema: z.enum(POLICY_MODES).optional() },
  approvalChannel: {
    env: ['TERM_MCP_APPROVAL'],
    flag: 'approval',
    schema: z.enum(['client', 'operator']).default('client'),
  },
  allowNetwork: { env: ['ALLOW_NETWORK'], schema: bool.optional() },
  // With ALLOW_NETWORK: the only hosts the sandbox's filtering proxy lets commands reach.
  allowedDomains: { env: ['TERM_MCP_ALLOWED_DOMAINS'], schema: domainList.default([...DEFAULT_ALLOWED_DOMAINS]) },
  // With ALLOW_NETWORK: loopback ports the proxy may reach for an exactly allowed host (a local registry mirror).
  proxyLoopbackPorts: {
    env: ['TERM_MCP_PROXY_LOOPBACK_PORTS'],
    schema: csv
      .pipe(
        z.array(
          z
            .string()
            .regex(/^\d{1,5}$/, 'a port is a number')
            .transform(Number)
            .pipe(z.number().int().min(1).max(65535)),
        ),
      )
      .default([]),
  },
  maxCommandLength: { env: ['MAX_COMMAND_LENGTH'], schema: positiveInt.max(100_000).default(1000) },
  commandTimeoutSeconds: { env: ['COMMAND_TIMEOUT'], schema: seconds.default(20) },
  maxCommandTimeoutSeconds: { env: ['TERM_MCP_MAX_COMMAND_TIMEOUT'], schema: seconds.default(600) },
  maxOutputBytes: { env: ['MAX_OUTPUT_BYTES'], schema: z.coerce.number().int().min(1024).default(1_048_576) },
  maxResourceBytes: { env: ['TERM_MCP_MAX_RESOURCE_BYTES'], schema: z.coerce.number().int().min(1).default(1_048_576) },
  // Issue 24: how much output a receipt shows (head and tail beyond it), and how much of it is kept to read back.
  resultMaxBytes: {
    env: ['TERM_MCP_RESULT_MAX_BYTES'],
    schema: z.coerce.number().int().min(1024).max(16_777_216).default(16_384),
  },
  resultMaxLines: {
    env: ['TERM_MCP_RESULT_MAX_LINES'],
    schema: z.coerce.number().int().min(2).max(100_000).default(400),
  },
  outputSpoolBytes: {
    env: ['TERM_MCP_OUTPUT_SPOOL_BYTES'],
    schema: z.coerce.number().int().min(0).default(268_435_456),
  },
  outputSpoolBudgetBytes: {
    env: ['TERM_MCP_OUTPUT_SPOOL_BUDGET_BYTES'],
    schema: z.coerce.number().int().min(0).default(1_073_741_824),
  },
  maxSessions: { env: ['MAX_CONCURRENT_SESSIONS'], schema: positiveInt.default(10) },
  maxSessionsPerPrincipal: { env: ['TERM_MCP_MAX_SESSIONS_PER_PRINCIPAL'], schema: positiveInt.optional() },
  sessionTimeoutSeconds: { env: ['SESSION_TIMEOUT'], schema: seconds.default(3600) },
  maxProcessesPerSession: { env: ['TERM_MCP_MAX_PROCESSES_PER_SESSION'], schema: positiveInt.default(1) },
  approvalTtlSeconds: { env: ['TERM_MCP_APPROVAL_TTL'], schema: seconds.default(600) },
  pageSize: { env: ['TERM_MCP_PAGE_SIZE'], schema: positiveInt.max(1000).default(100) },
  receiptKey: { env: ['TERM_MCP_RECEIPT_KEY', 'AUTH_TOKEN', 'TERM_MCP_TOKEN'], schema: z.string().min(1).optional() },
  auditLog: { env: ['AUDIT_LOG'], schema: z.string().min(1).optional() },
  // The server's own state (the persistent receipt key): outside the workspace; see state-directory.ts.
  stateDir: { env: ['TERM_MCP_STATE_DIR'], schema: z.string().min(1).optional() },
  xdgStateHome: { env: ['XDG_STATE_HOME'], schema: z.string().min(1).optional() },
  logLevel: { env: ['LOG_LEVEL'], schema: logLevel.default('info') },
  // The OS sandbox every command runs in (docs/security.md)
  sandboxEnabled: { env: ['TERM_MCP_SANDBOX'], schema: bool.default(true) },
  bwrapPath: { env: ['TERM_MCP_BWRAP'], schema: z.string().min(1).default('/usr/bin/bwrap') },
  socatPath: { env: ['TERM_MCP_SOCAT'], schema: z.string().min(1).default('/usr/bin/socat') },
  sandboxMemoryMb: { env: ['TERM_MCP_SANDBOX_MEMORY_MB'], schema: positiveInt.default(4096) },
  sandboxProcesses: { env: ['TERM_MCP_SANDBOX_PROCESSES'], schema: positiveInt.default(1024) },
  sandboxFileSizeMb: { env: ['TERM_MCP_SANDBOX_FILE_SIZE_MB'], schema: positiveInt.default(1024) },
  sandboxCpuSeconds: { env: ['TERM_MCP_SANDBOX_CPU_SECONDS'], schema: positiveInt.default(600) },
  // Sizes of the sandbox's private /tmp and /dev/shm (tmpfs: memory a command can pin whatever its address-space limit).
  sandboxTmpMb: { env: ['TERM_MCP_SANDBOX_TMP_MB'], schema: positiveInt.default(1024) },
  sandboxShmMb: { env: ['TERM_MCP_SANDBOX_SHM_MB'], schema: positiveInt.default(64) },
  // Toolchain directories, relative to a hidden home, that commands may still read (the rest of every home is hidden).
  sandboxHomeAllow: {
    env: ['TERM_MCP_SANDBOX_HOME_ALLOW'],
    schema: homeAllowList.default([...DEFAULT_HOME_ALLOW_LIST]),
  },
  // $HOME: hidden from commands as well as the home the passwd database gives the server's user (docs/security.md).
  homeDir: { env: ['HOME'], schema: z.string().min(1).optional() },
  // HTTP transport
  host: { env: ['HOST'], flag: 'host', schema: z.string().min(1).default('127.0.0.1') },
  port: { env: ['PORT'], flag: 'port', schema: z.coerce.number().int().min(0).max(65535).default(8000) },
  token: {
    env: ['TERM_MCP_TOKEN', 'AUTH_TOKEN'],
    schema: z.string().min(32, 'must contain at least 32 characters').optional(),
  },
  operatorToken: {
    env: ['TERM_MCP_OPERATOR_TOKEN'],
    schema: z.string().min(32, 'must contain at least 32 characters').optional(),
  },
  jwtSecret: {
    env: ['TERM_MCP_JWT_SECRET'],
    schema: z.string().min(32, 'must contain at least 32 characters').optional(),
  },
  jwtJwks: { env: ['TERM_MCP_JWT_JWKS'], schema: z.string().min(1).optional() },
  jwtIssuer: { env: ['TERM_MCP_JWT_ISSUER'], schema: z.string().min(1).optional() },
  jwtAudience: { env: ['TERM_MCP_JWT_AUDIENCE'], schema: z.string().min(1).optional() },
  publicUrl: { env: ['TERM_MCP_PUBLIC_URL'], schema: z.url().optional() },
  allowedOrigins: { env: ['ALLOWED_ORIGINS'], schema: csv.optional() },
  maxRequestBytes: { env: ['MAX_REQUEST_BYTES'], schema: positiveInt.default(65_536) },
  rateLimitPerMinute: { env: ['RATE_LIMIT_PER_MINUTE'], schema: positiveInt.default(600) },
  // A legacy session is a few hundred bytes (a handshake and an empty in-flight map): the cap is far above normal use.
  maxLegacySessions: { env: ['TERM_MCP_MAX_LEGACY_SESSIONS'], schema: positiveInt.default(10_000) },
  maxLegacySessionsPerPrincipal: {
    env: ['TERM_MCP_MAX_LEGACY_SESSIONS_PER_PRINCIPAL'],
    schema: positiveInt.optional(),
  },
  legacySessionEvictableAfterSeconds: {
    env: ['TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER'],
    schema: z.coerce.number().min(0).default(900),
  },
  trustProxy: { env: ['TRUST_PROXY'], schema: bool.default(false) },
  // Legacy web adapter
  sunset: { env: ['TERM_MCP_SUNSET'], schema: z.string().min(1).default('Fri, 27 Aug 2027 00:00:00 GMT') },
  deprecationLink: { env: ['TERM_MCP_DEPRECATION_LINK'], schema: z.string().min(1).default('/docs/compatibility.md') },
  // Seed settings accepted for compatibility that change nothing here (see SEED_SETTINGS_WITHOUT_EFFECT)
  seedDebug: { env: ['DEBUG'], schema: bool.optional() },
  seedMcpVersion: { env: ['MCP_VERSION'], schema: z.string().min(1).optional() },
  seedLogFile: { env: ['LOG_FILE'], schema: z.string().min(1).optional() },
  seedLogMaxBytes: { env: ['LOG_MAX_BYTES'], schema: positiveInt.optional() },
  seedLogBackupCount: { env: ['LOG_BACKUP_COUNT'], schema: z.coerce.number().int().min(0).optional() },
  seedSecretKey: { env: ['SECRET_KEY'], schema: z.string().optional() },
  seedJwtSecret: { env: ['JWT_SECRET'], schema: z.string().optional() },
  // Optional DeepSeek planning chat
  deepseekApiKey: { env: ['DEEPSEEK_API_KEY'], schema: z.string().min(1).optional() },
  deepseekBaseUrl: { env: ['DEEPSEEK_BASE_URL'], schema: z.url().default('https://api.deepseek.com') },
  deepseekModel: { env: ['DEEPSEEK_MODEL'], schema: z.string().min(1).default('deepseek-chat') },
  deepseekTimeoutSeconds: { env: ['DEEPSEEK_TIMEOUT'], schema: seconds.default(20) },
  deepseekMaxRetries: { env: ['DEEPSEEK_MAX_RETRIES'], schema: z.coerce.number().int().min(0).max(5).default(2) },
  deepseekBackoffSeconds: { env: ['DEEPSEEK_BACKOFF'], schema: z.coerce.number().min(0).default(0.25) },
  deepseekMaxTokens: { env: ['DEEPSEEK_MAX_TOKENS'], schema: z.coerce.number().int().min(1).max(8192).default(1024) },
} as const;

type Settings = typeof SETTINGS;

/**
 * The seed's settings that term-mcp accepts (and validates) so an existing .env keeps working, but that have no
 * effect here; start-up logs a warning naming each one that is set.
 */
const SEED_SETTINGS_WITHOUT_EFFECT = Object.freeze({
  seedDebug: { name: 'DEBUG', reason: 'there is no Flask debug server; diagnostics are JSON lines on stderr' },
  seedMcpVersion: {
    name: 'MCP_VERSION',
    reason: 'protocol versions are negotiated per request (2026-07-28) or by initialize (2025-11-25)',
  },
  seedLogFile: { name: 'LOG_FILE', reason: 'diagnostics go to stderr; redirect it to keep a file' },
  seedLogMaxBytes: { name: 'LOG_MAX_BYTES', reason: 'diagnostics go to stderr; rotate with your process manager' },
  seedLogBackupCount: {
    name: 'LOG_BACKUP_COUNT',
    reason: 'diagnostics go to stderr; rotate with your process manager',
  },
  seedSecretKey: { name: 'SECRET_KEY', reason: 'no cookie sessions exist' },
  seedJwtSecret: {
    name: 'JWT_SECRET',
    reason: 'use TERM_MCP_JWT_SECRET with TERM_MCP_JWT_ISSUER and TERM_MCP_JWT_AUDIENCE',
  },
} satisfies Partial<Record<keyof Settings, { name: string; reason: string }>>);

/** `stateDir` is resolved (to a default when unset); undefined when the default lies inside the workspace. */
export type Config = Readonly<
  Omit<{ [K in keyof Settings]: z.output<Settings[K]['schema']> }, 'stateDir'> & { stateDir: string | undefined }
>;
export type ConfigFlags = Readonly<Record<string, string | undefined>>;

/** The settings only `term-mcp http` binds with: `stdio` does not refuse to start over a bad value it never uses. */
export const HTTP_LISTEN_SETTINGS: ReadonlyArray<keyof Settings> = ['host', 'port'];

/**
 * Parses the configuration; throws `ConfigurationError` naming the variable (or flag) that is wrong. A setting in
 * `unused` that does not parse takes its default instead (the caller never reads it).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  flags: ConfigFlags = {},
  cwd: string = process.cwd(),
  unused: ReadonlyArray<keyof Settings> = [],
): Config {
  const values: Record<string, unknown> = {};
  let workspaceSource = 'WORKSPACE_ROOT';
  for (const [key, setting] of Object.entries(SETTINGS) as Array<[string, Settings[keyof Settings]]>) {
    const { raw, source } = pickRaw(setting, env, flags);
    if (key === 'workspaceRoot' && source !== undefined) workspaceSource = source;
    const input = raw ?? (key === 'workspaceRoot' ? cwd : undefined);
    let parsed = setting.schema.safeParse(input === undefined || input === '' ? undefined : input);
    if (!parsed.success && unused.includes(key as keyof Settings)) parsed = setting.schema.safeParse(undefined);
    if (!parsed.success) {
      throw new ConfigurationError(`${source ?? setting.env[0]}: ${problemOf(parsed.error.issues[0], input)}`, {
        setting: source ?? setting.env[0],
      });
    }
    values[key] = parsed.data;
  }
  values.workspaceRoot = resolveWorkspaceRoot(String(values.workspaceRoot), cwd, workspaceSource);
  const workspaceRoot = String(values.workspaceRoot);
  values.stateDir = resolveStateDirectory(
    values.stateDir as string | undefined,
    values.xdgStateHome as string | undefined,
    cwd,
    workspaceRoot,
  );
  // The server's own files never live where commands write (issue 26 item 3).
  if (values.auditLog !== undefined)
    refuseInsideWorkspace('AUDIT_LOG', path.resolve(cwd, String(values.auditLog)), workspaceRoot);
  if (values.policyFile !== undefined)
    refuseInsideWorkspace('TERM_MCP_POLICY', path.resolve(cwd, String(values.policyFile)), workspaceRoot);
  if (
    values.maxCommandTimeoutSeconds !== undefined &&
    Number(values.commandTimeoutSeconds) > Number(values.maxCommandTimeoutSeconds)
  ) {
    throw new ConfigurationError('COMMAND_TIMEOUT: must not exceed TERM_MCP_MAX_COMMAND_TIMEOUT', {
      setting: 'COMMAND_TIMEOUT',
    });
  }
  return Object.freeze(values) as Config;
}

/** zod's message, except for a number that is not one: zod says "expected number, received NaN". */
function problemOf(issue: z.core.$ZodIssue | undefined, input: unknown): string {
  if (issue === undefined) return 'invalid value';
  if (issue.code === 'invalid_type' && issue.expected === 'number')
    return `must be a number, not ${JSON.stringify(input)}`;
  return issue.message;
}

function pickRaw(
  setting: { env: readonly string[]; flag?: string },
  env: NodeJS.ProcessEnv,
  flags: ConfigFlags,
): { raw: string | undefined; source: string | undefined } {
  if (setting.flag !== undefined && flags[setting.flag] !== undefined)
    return { raw: flags[setting.flag], source: `--${setting.flag}` };
  for (const name of setting.env) {
    if (env[name] !== undefined && env[name] !== '') return { raw: env[name], source: name };
  }
  return { raw: undefined, source: undefined };
}

/**
 * The workspace must be a directory this process can list and enter: commands run there as this process's user,
 * so a folder it cannot enter would start a server that lists nothing and whose every command fails with EACCES.
 * (As root, permission bits do not stop it, and neither do they stop the commands.)
 */
function resolveWorkspaceRoot(value: string, cwd: string, source: string): string {
  const absolute = path.resolve(cwd, value);
  const refuse = (problem: string): ConfigurationError =>
    new ConfigurationError(`${source}: ${problem}: ${value}`, { setting: source });
  let stats;
  try {
    stats = statSync(absolute);
  } catch (error) {
    // EACCES: a parent directory cannot be entered, so neither can the workspace.
    throw refuse(errorCode(error) === 'EACCES' ? CANNOT_ENTER : 'does not exist');
  }
  if (!stats.isDirectory()) throw refuse('is not a directory');
  try {
    accessSync(absolute, constants.R_OK | constants.X_OK);
    opendirSync(absolute).closeSync();
  } catch {
    throw refuse(CANNOT_ENTER);
  }
  return realpathSync(absolute);
}

const CANNOT_ENTER = 'cannot be read or entered by this user (permission denied)';

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** The seed-only settings that are set, each with why it has no effect. */
export function seedSettingsWithoutEffect(config: Config): Array<{ name: string; reason: string }> {
  return Object.entries(SEED_SETTINGS_WITHOUT_EFFECT)
    .filter(([key]) => config[key as keyof Config] !== undefined)
    .map(([, setting]) => setting);
}
