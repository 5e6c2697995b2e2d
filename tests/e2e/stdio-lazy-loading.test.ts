import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace, REPO_ROOT } from '../support/workspace';

/** The part of esbuild's metafile this test reads: each output file and the source files bundled into it. */
interface BundleMeta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/**
 * Cold start on STDIO (issue 15): the HTTP server, the web UI, the chat and JWT code are loaded only by the commands
 * that use them. A module hook (registered with NODE_OPTIONS=--import) records every module the real `term-mcp stdio`
 * loads up to its first tools/list answer and a tool call; the bundle's chunk map says which sources those hold.
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
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
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
      const executed = await peer.request(
        modern('tools/call', 2, { name: 'terminal_execute', arguments: { command: 'echo hi' } }),
        30_000,
      );
      expect(executed.result).toMatchObject({ isError: false, structuredContent: { stdout: 'hi\n' } });
      expect(await peer.end()).toBe(0);

      // The CLI is a bundle (scripts/bundle.mjs): the build's chunk map names the sources inside each loaded chunk.
      const loadedFiles = readFileSync(log, 'utf8')
        .split('\n')
        .filter((url) => url.startsWith('file:'))
        .map((url) => path.relative(REPO_ROOT, fileURLToPath(url)));
      const chunkMap = JSON.parse(
        readFileSync(path.join(REPO_ROOT, 'dist', 'cli-bundle-meta.json'), 'utf8'),
      ) as BundleMeta;
      const loaded = loadedFiles.flatMap((file) => Object.keys(chunkMap.outputs[file]?.inputs ?? {}));
      // The hook saw the server itself, so an empty list cannot pass for a clean one.
      expect(loadedFiles).toContain(path.join('dist', 'main', 'cli.js'));
      expect(loaded).toContain('dist/main/run-stdio.js');
      expect(loaded.some((source) => source.startsWith('node_modules/zod/'))).toBe(true);
      const unwanted = loaded.filter((source) =>
        /^node_modules\/(express|helmet|jose|body-parser|router|@modelcontextprotocol)\/|^dist\/adapters\/(http|deepseek)\/|^dist\/application\/chat\/|^dist\/main\/(http-app|run-http|web-mounts|receipt-http-mounts|modules\/web-module|modules\/receipt-http-module)\.js$/.test(
          source,
        ),
      );
      expect(unwanted).toEqual([]);
    } finally {
      peer.kill();
      workspace.remove();
      scratch.remove();
    }
  }, 60_000);
});
