import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../src/domain/errors';
import { loadConfig, seedSettingsWithoutEffect } from '../../src/main/config';
import { makeTempWorkspace } from '../support/workspace';

describe('loadConfig', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  beforeEach(() => {
    workspace = makeTempWorkspace();
  });
  afterEach(() => workspace.remove());

  test('defaults the workspace to the current directory and applies the seed defaults', () => {
    const config = loadConfig({}, {}, workspace.root);
    expect(config.workspaceRoot).toBe(workspace.root);
    expect(config).toMatchObject({
      commandTimeoutSeconds: 20,
      maxOutputBytes: 1_048_576,
      maxSessions: 10,
      sessionTimeoutSeconds: 3600,
      maxProcessesPerSession: 1,
      approvalChannel: 'client',
      host: '127.0.0.1',
      port: 8000,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('the command sandbox is on by default, with limits; each setting can be changed and a bad one is named', () => {
    expect(loadConfig({}, {}, workspace.root)).toMatchObject({
      sandboxEnabled: true,
      bwrapPath: '/usr/bin/bwrap',
      sandboxMemoryMb: 4096,
      sandboxProcesses: 1024,
      sandboxFileSizeMb: 1024,
      sandboxCpuSeconds: 600,
    });
    const changed = loadConfig(
      {
        TERM_MCP_SANDBOX: 'off',
        TERM_MCP_BWRAP: '/opt/bwrap',
        TERM_MCP_SANDBOX_MEMORY_MB: '512',
        TERM_MCP_SANDBOX_PROCESSES: '64',
        TERM_MCP_SANDBOX_FILE_SIZE_MB: '10',
        TERM_MCP_SANDBOX_CPU_SECONDS: '5',
      },
      {},
      workspace.root,
    );
    expect(changed).toMatchObject({
      sandboxEnabled: false,
      bwrapPath: '/opt/bwrap',
      sandboxMemoryMb: 512,
      sandboxProcesses: 64,
      sandboxFileSizeMb: 10,
      sandboxCpuSeconds: 5,
    });
    expect(() => loadConfig({ TERM_MCP_SANDBOX: 'maybe' }, {}, workspace.root)).toThrow(/TERM_MCP_SANDBOX/);
    expect(() => loadConfig({ TERM_MCP_SANDBOX_PROCESSES: '0' }, {}, workspace.root)).toThrow(
      /TERM_MCP_SANDBOX_PROCESSES/,
    );
  });

  test('flags win over environment variables', () => {
    const other = makeTempWorkspace();
    try {
      const config = loadConfig(
        { WORKSPACE_ROOT: workspace.root, PORT: '9000' },
        { workspace: other.root, port: '9100' },
        '/',
      );
      expect(config.workspaceRoot).toBe(other.root);
      expect(config.port).toBe(9100);
    } finally {
      other.remove();
    }
  });

  test('accepts the seed variable names (AUTH_TOKEN, APPROVAL_MODE, ALLOW_NETWORK)', () => {
    const token = 't'.repeat(40);
    const config = loadConfig({
      WORKSPACE_ROOT: workspace.root,
      AUTH_TOKEN: token,
      APPROVAL_MODE: 'confirm',
      ALLOW_NETWORK: 'yes',
    });
    expect(config.token).toBe(token);
    expect(config.policyMode).toBe('confirm');
    expect(config.allowNetwork).toBe(true);
  });

  test('TERM_MCP_ALLOWED_DOMAINS: the package registries by default, else a comma-separated list of checked entries', () => {
    expect(loadConfig({ WORKSPACE_ROOT: workspace.root }).allowedDomains).toEqual(
      expect.arrayContaining([
        'registry.npmjs.org',
        'pypi.org',
        'files.pythonhosted.org',
        'crates.io',
        'proxy.golang.org',
        'github.com',
      ]),
    );
    expect(
      loadConfig({
        WORKSPACE_ROOT: workspace.root,
        TERM_MCP_ALLOWED_DOMAINS: ' npm.corp.example , *.pkg.example.com,10.0.0.5 ',
      }).allowedDomains,
    ).toEqual(['npm.corp.example', '*.pkg.example.com', '10.0.0.5']);
    for (const bad of ['*', '*.com', 'https://pypi.org', 'pypi.org:443', 'pypi.org,0x7f.1']) {
      expect(() => loadConfig({ WORKSPACE_ROOT: workspace.root, TERM_MCP_ALLOWED_DOMAINS: bad })).toThrow(
        /^TERM_MCP_ALLOWED_DOMAINS: /,
      );
    }
  });

  test('per-principal session shares are unset by default (half the cap applies) and must be positive integers', () => {
    expect(loadConfig({ WORKSPACE_ROOT: workspace.root })).toMatchObject({
      maxSessionsPerPrincipal: undefined,
      maxLegacySessionsPerPrincipal: undefined,
    });
    const config = loadConfig({
      WORKSPACE_ROOT: workspace.root,
      TERM_MCP_MAX_SESSIONS_PER_PRINCIPAL: '3',
      TERM_MCP_MAX_LEGACY_SESSIONS_PER_PRINCIPAL: '7',
    });
    expect(config).toMatchObject({ maxSessionsPerPrincipal: 3, maxLegacySessionsPerPrincipal: 7 });
    expect(() => loadConfig({ WORKSPACE_ROOT: workspace.root, TERM_MCP_MAX_SESSIONS_PER_PRINCIPAL: '0' })).toThrow(
      'TERM_MCP_MAX_SESSIONS_PER_PRINCIPAL',
    );
    expect(() =>
      loadConfig({ WORKSPACE_ROOT: workspace.root, TERM_MCP_MAX_LEGACY_SESSIONS_PER_PRINCIPAL: '1.5' }),
    ).toThrow('TERM_MCP_MAX_LEGACY_SESSIONS_PER_PRINCIPAL');
  });

  test.each([
    [{ WORKSPACE_ROOT: '/does/not/exist' }, 'WORKSPACE_ROOT'],
    [{ COMMAND_TIMEOUT: '-1' }, 'COMMAND_TIMEOUT'],
    [{ APPROVAL_MODE: 'yolo' }, 'APPROVAL_MODE'],
    [{ TERM_MCP_TOKEN: 'short' }, 'TERM_MCP_TOKEN'],
    [{ PORT: '70000' }, 'PORT'],
    [{ MAX_OUTPUT_BYTES: '12' }, 'MAX_OUTPUT_BYTES'],
    [{ ALLOW_NETWORK: 'maybe' }, 'ALLOW_NETWORK'],
    [{ COMMAND_TIMEOUT: '900' }, 'COMMAND_TIMEOUT'],
  ])('rejects %j naming %s', (env, name) => {
    const attempt = () => loadConfig({ WORKSPACE_ROOT: workspace.root, ...env });
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(new RegExp(`^${name}`));
  });

  test('a workspace refusal names the flag when the flag gave it', () => {
    const missing = path.join(workspace.root, 'missing');
    expect(() => loadConfig({ WORKSPACE_ROOT: workspace.root }, { workspace: missing })).toThrow(
      `--workspace: does not exist: ${missing}`,
    );
  });

  test('a file given as WORKSPACE_ROOT is refused', () => {
    const file = path.join(workspace.root, 'file.txt');
    writeFileSync(file, 'x');
    expect(() => loadConfig({ WORKSPACE_ROOT: file })).toThrow(/WORKSPACE_ROOT: is not a directory/);
  });

  test('accepts every seed setting: the used ones take effect, the others are named as having none', () => {
    const config = loadConfig({
      WORKSPACE_ROOT: workspace.root,
      MAX_COMMAND_LENGTH: '200',
      LOG_LEVEL: 'WARNING',
      DEBUG: 'true',
      MCP_VERSION: '2026-07-28',
      LOG_FILE: 'logs/term.log',
      LOG_MAX_BYTES: '10485760',
      LOG_BACKUP_COUNT: '5',
      SECRET_KEY: 'legacy',
      JWT_SECRET: 'legacy',
    });
    expect(config.maxCommandLength).toBe(200);
    expect(config.logLevel).toBe('warn');
    expect(seedSettingsWithoutEffect(config).map((setting) => setting.name)).toEqual([
      'DEBUG',
      'MCP_VERSION',
      'LOG_FILE',
      'LOG_MAX_BYTES',
      'LOG_BACKUP_COUNT',
      'SECRET_KEY',
      'JWT_SECRET',
    ]);
    expect(seedSettingsWithoutEffect(loadConfig({ WORKSPACE_ROOT: workspace.root }))).toEqual([]);
  });

  test.each([
    ['DEBUG', 'perhaps'],
    ['LOG_MAX_BYTES', '-3'],
    ['LOG_LEVEL', 'LOUD'],
    ['MAX_COMMAND_LENGTH', '0'],
  ])('still validates the seed setting %s=%s', (name, value) => {
    expect(() => loadConfig({ WORKSPACE_ROOT: workspace.root, [name]: value })).toThrow(new RegExp(`^${name}`));
  });
});
