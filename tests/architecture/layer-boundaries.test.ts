import { execFile } from 'node:child_process';
import path from 'node:path';

/*
 * docs/architecture.md claims the layers hold; eslint.config.js is what enforces it. These tests lint real source
 * text as if it were a file at the given path (ESLint's --stdin-filename), with the project's own configuration.
 */

const ROOT = path.resolve(__dirname, '../..');
const ESLINT = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

/** ESLint's JSON report of `source` linted as `file`; exit code 1 (problems found) is an answer, not a failure. */
function lintAs(file: string, source: string): Promise<LintMessage[]> {
  return new Promise((resolve, reject) => {
    // The probe files exist only on stdin, outside the TypeScript project: the type-aware rules (which need the
    // project, and a whole program per run) are off here; the import rules under test need no types.
    const untyped = [
      '--parser-options',
      'projectService:false',
      '--rule',
      '@typescript-eslint/no-floating-promises: off',
      '--rule',
      '@typescript-eslint/no-misused-promises: off',
      '--rule',
      '@typescript-eslint/switch-exhaustiveness-check: off',
    ];
    const args = [ESLINT, '--format', 'json', ...untyped, '--stdin', '--stdin-filename', file];
    const child = execFile(process.execPath, args, { cwd: ROOT }, (error, stdout) => {
      if (error && error.code !== 1) {
        reject(error);
        return;
      }
      const [result] = JSON.parse(stdout) as Array<{ messages: LintMessage[] }>;
      resolve(result?.messages ?? []);
    });
    child.stdin?.end(source);
  });
}

function restricted(messages: LintMessage[]): string[] {
  return messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('layer boundaries (eslint.config.js)', () => {
  jest.setTimeout(60_000);

  it('refuses an adapter that imports another adapter', async () => {
    const messages = await lintAs(
      'src/adapters/web/boundary-probe.ts',
      "import { sendJsonRpcError } from '../http/json-rpc-reply.js';\nexport const probe = sendJsonRpcError;\n",
    );
    expect(restricted(messages)).toEqual([expect.stringContaining('An adapter never imports another adapter')]);
  });

  it('lets an adapter import its own folder, the application and the domain', async () => {
    const messages = await lintAs(
      'src/adapters/web/boundary-probe.ts',
      [
        "import { sendWebError } from './web-error-reply.js';",
        "import { ToolCatalog } from '../../application/tools/tool-catalog.js';",
        "import { DomainError } from '../../domain/errors.js';",
        'export const probe = [sendWebError, ToolCatalog, DomainError];',
        '',
      ].join('\n'),
    );
    expect(restricted(messages)).toEqual([]);
  });

  it('refuses a domain module that imports the application, an adapter or a framework', async () => {
    const messages = await lintAs(
      'src/domain/terminal/boundary-probe.ts',
      [
        "import { ToolCatalog } from '../../application/tools/tool-catalog.js';",
        "import { NodeWorkspaceFS } from '../../adapters/fs/node-workspace-fs.js';",
        "import { z } from 'zod';",
        'export const probe = [ToolCatalog, NodeWorkspaceFS, z];',
        '',
      ].join('\n'),
    );
    const refused = new Set(restricted(messages).map((message) => message.split("'")[1]));
    expect([...refused].sort()).toEqual([
      '../../adapters/fs/node-workspace-fs.js',
      '../../application/tools/tool-catalog.js',
      'zod',
    ]);
  });

  it('refuses an application module that imports an adapter', async () => {
    const messages = await lintAs(
      'src/application/terminal/boundary-probe.ts',
      "import { NodeWorkspaceFS } from '../../adapters/fs/node-workspace-fs.js';\nexport const probe = NodeWorkspaceFS;\n",
    );
    expect(restricted(messages)).toEqual([expect.stringContaining('Application code depends on ports')]);
  });

  it('refuses a shell module that imports the policy or an adapter, and lets it import the domain', async () => {
    const messages = await lintAs(
      'src/application/shell/boundary-probe.ts',
      [
        "import { judgeSimpleCommand } from '../policy/simple-command-judge.js';",
        "import { NodeWorkspaceFS } from '../../adapters/fs/node-workspace-fs.js';",
        "import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';",
        'export const probe = [judgeSimpleCommand, NodeWorkspaceFS, ShellSyntaxError];',
        '',
      ].join('\n'),
    );
    expect(restricted(messages)).toEqual([
      expect.stringContaining('The shell reading never imports the policy'),
      expect.stringContaining('Application code depends on ports'),
    ]);
  });

  it('refuses process.env outside src/main, and allows it in the composition root', async () => {
    const source = 'export const home = process.env.HOME;\n';
    const adapter = await lintAs('src/adapters/process/boundary-probe.ts', source);
    const main = await lintAs('src/main/boundary-probe.ts', source);
    expect(
      adapter.filter((message) => message.ruleId === 'no-restricted-properties').map((message) => message.message),
    ).toEqual([expect.stringContaining('Only src/main reads process.env')]);
    expect(main.filter((message) => message.ruleId === 'no-restricted-properties')).toEqual([]);
  });
});
