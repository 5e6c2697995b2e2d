import { closeSync, constants, openSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_POLICY_SETTINGS, parsePolicyDocument } from '../application/policy/policy-document.js';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import { ConfigurationError } from '../domain/errors.js';
import { PolicyFileInvalid } from '../domain/policy/policy-errors.js';
import type { Config } from './config.js';

/**
 * The policy settings: the defaults, then the policy file (TERM_MCP_POLICY), then APPROVAL_MODE / ALLOW_NETWORK
 * when they are set explicitly (the environment and flags win over the file).
 */
export function loadPolicySettings(config: Config): PolicySettings {
  const fromFile = config.policyFile === undefined ? DEFAULT_POLICY_SETTINGS : readPolicyFile(config.policyFile);
  const mode = config.policyMode ?? fromFile.mode;
  if (mode === 'sandboxed' && !config.sandboxEnabled) {
    // Fail closed: sandboxed mode allows what only the sandbox makes safe; without it, it must not start at all.
    const source = config.policyMode === undefined ? 'TERM_MCP_POLICY' : 'APPROVAL_MODE';
    throw new ConfigurationError(
      `${source}: mode sandboxed needs the bubblewrap sandbox, but TERM_MCP_SANDBOX is off; turn the sandbox on or choose another mode (confirm asks before writes)`,
      { setting: source },
    );
  }
  const serverFiles = [config.policyFile, config.auditLog].flatMap((file) =>
    file === undefined ? [] : [realPath(path.resolve(file))],
  );
  return Object.freeze({
    ...fromFile,
    mode,
    allowNetwork: config.allowNetwork ?? fromFile.allowNetwork,
    serverFiles: Object.freeze(serverFiles),
  });
}

/** The path with symlinks resolved, as the policy's path inspector resolves the words it compares with it. */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    // Not created yet (an audit log before the first receipt): its parent may still be a symlink.
    try {
      return path.join(realpathSync(path.dirname(file)), path.basename(file));
    } catch {
      return file;
    }
  }
}

function readPolicyFile(file: string): PolicySettings {
  const extension = path.extname(file).toLowerCase();
  const format = extension === '.json' ? 'json' : extension === '.yaml' || extension === '.yml' ? 'yaml' : undefined;
  if (format === undefined) {
    throw new ConfigurationError(`TERM_MCP_POLICY: ${file}: the file name must end in .json, .yaml or .yml`, {
      setting: 'TERM_MCP_POLICY',
      file,
    });
  }
  let text: string;
  try {
    // Never through a link at the file's own name (ELOOP): the server opens its files without following links.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigurationError(`TERM_MCP_POLICY: ${file}: cannot read the policy file (${reason})`, {
      setting: 'TERM_MCP_POLICY',
      file,
    });
  }
  try {
    return parsePolicyDocument(text, format);
  } catch (error) {
    if (!(error instanceof PolicyFileInvalid)) throw error;
    throw new ConfigurationError(`TERM_MCP_POLICY: ${file}: ${error.message}`, {
      setting: 'TERM_MCP_POLICY',
      file,
      ...error.details,
    });
  }
}
