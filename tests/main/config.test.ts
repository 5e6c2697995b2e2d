import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../src/domain/errors';
import { loadConfig } from '../../src/main/config';
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

  test('flags win over environment variables', () => {
    const other = makeTempWorkspace();
    try {
      const config = loadConfig({ WORKSPACE_ROOT: workspace.root, PORT: '9000' }, { workspace: other.root, port: '9100' }, '/');
      expect(config.workspaceRoot).toBe(other.root);
      expect(config.port).toBe(9100);
    } finally {
      other.remove();
    }
  });

  test('accepts the seed variable names (AUTH_TOKEN, APPROVAL_MODE, ALLOW_NETWORK)', () => {
    const token = 't'.repeat(40);
    const config = loadConfig({ WORKSPACE_ROOT: workspace.root, AUTH_TOKEN: token, APPROVAL_MODE: 'confirm', ALLOW_NETWORK: 'yes' });
    expect(config.token).toBe(token);
    expect(config.policyMode).toBe('confirm');
    expect(config.allowNetwork).toBe(true);
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

  test('a file given as WORKSPACE_ROOT is refused', () => {
    const file = path.join(workspace.root, 'file.txt');
    writeFileSync(file, 'x');
    expect(() => loadConfig({ WORKSPACE_ROOT: file })).toThrow(/WORKSPACE_ROOT: is not a directory/);
  });
});
