import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/**
 * Cold start on STDIO (issue 15): the HTTP server, the web UI, the chat and JWT code are loaded only by the commands
 * that use them. A module hook (registered with NODE_OPTIONS=--import) records every module the real `term-mcp stdio`
 * loads up to its first tools/list answer and a tool call.
 */
describe('term-mcp stdio loads only what STDIO uses', () => {
  test('no express, helmet or jose, and none of the HTTP, web or chat adapters', async () => {
    const workspace = makeTempWorkspace();
    const scratch = makeTempWorkspace('term-mcp-hooks-');
    const log = path.join(scratch.root, 'loaded.txt');
    writeFileSync(log, '');
    const hooks = path.join(scratch.root, 'hooks.mjs');
    writeFileSync(
      hooks,
      "import { appendFileSync } from 'node:fs';\n" +
        'export async function load(url, context, next) {\n' +
        "  appendFileSync(process.env.LOADED_MODULES_LOG, url + '\\n');\n" +
        '  return next(url, context);\n' +
        '}\n',
    );
    const register = path.join(scratch.root, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const peer = new StdioPeer({
      WORKSPACE_ROOT: workspace.root,
      TERM_MCP_SANDBOX: 'off',
      LOG_LEVEL: 'error',
      NODE_OPTIONS: `--import=${register}`,
      LOADED_MODULES_LOG: log,
    });
    try {
      const listed = await peer.request(modern('tools/list', 1), 30_000);
      expect(Array.isArray(listed.result?.tools)).toBe(true);
      const executed = await peer.request(modern('tools/call', 2, { name: 'terminal_execute', arguments: { command: 'echo hi' } }), 30_000);
      expect(executed.result).toMatchObject({ isError: false, structuredContent: { stdout: 'hi\n' } });
      expect(await peer.end()).toBe(0);

      const loaded = readFileSync(log, 'utf8').split('\n').filter((line) => line !== '');
      // The hook saw the server itself, so an empty list cannot pass for a clean one.
      expect(loaded.some((url) => url.endsWith('/dist/main/run-stdio.js'))).toBe(true);
      expect(loaded.some((url) => url.includes('/node_modules/zod/'))).toBe(true);
      const unwanted = loaded.filter((url) =>
        /\/node_modules\/(express|helmet|jose|body-parser|router|@modelcontextprotocol)\/|\/dist\/adapters\/(http|deepseek)\/|\/dist\/application\/chat\/|\/dist\/main\/(http-app|run-http|web-mounts|receipt-http-mounts|modules\/web-module|modules\/receipt-http-module)\.js$/.test(url),
      );
      expect(unwanted).toEqual([]);
    } finally {
      peer.kill();
      workspace.remove();
      scratch.remove();
    }
  }, 60_000);
});
