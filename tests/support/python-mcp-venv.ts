import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './workspace';

/** The official Python MCP SDK the tests drive term-mcp with (issue 23 used it; pinned so a run is reproducible). */
export const PYTHON_MCP_VERSION = '2.3.0';

/**
 * A virtual environment with `mcp==PYTHON_MCP_VERSION`, made once under node_modules/.cache and reused while its
 * `.ready` marker exists (written only after pip succeeded, so a broken half-install is rebuilt, not reused).
 * Returns its python. Throws with pip's last lines when the environment cannot be made: never a silent skip.
 */
export function pythonWithMcp(): string {
  const venv = path.join(REPO_ROOT, 'node_modules', '.cache', 'term-mcp-python', `mcp-${PYTHON_MCP_VERSION}`);
  const python = path.join(venv, 'bin', 'python');
  const ready = path.join(venv, '.ready');
  if (existsSync(ready)) return python;
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(path.dirname(venv), { recursive: true });
  try {
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'pipe' });
    // No retries: where the default index is out of reach and a mirror is configured (pip.conf's extra-index-url),
    // each of pip's retries of the unreachable index costs seconds per package, minutes in all.
    execFileSync(
      python,
      [
        '-m',
        'pip',
        'install',
        '--disable-pip-version-check',
        '--quiet',
        '--retries',
        '0',
        `mcp==${PYTHON_MCP_VERSION}`,
      ],
      { stdio: 'pipe' },
    );
  } catch (error) {
    const output = error as { stderr?: Buffer; message: string };
    throw new Error(
      `cannot set up the Python MCP SDK in ${venv} (python3 -m venv, then pip install mcp==${PYTHON_MCP_VERSION}; ` +
        `README lists what npm test needs): ${output.stderr?.toString().trim().split('\n').slice(-3).join(' | ') ?? output.message}`,
      { cause: error },
    );
  }
  writeFileSync(ready, `mcp==${PYTHON_MCP_VERSION}\n`);
  return python;
}
