// Bundles the CLI after tsc: dist/main/cli.js (tsc's one-line entry) becomes the bundle's entry, with its chunks in
// dist/main/cli-chunks/. `term-mcp` then starts by reading a handful of files instead of resolving ~460 modules
// (issue 15: module loading was a third of the cold start), at the path every client configuration already names.
// The `import()`s that keep HTTP, the web UI and the chat off the STDIO path become their own chunks, still loaded
// only when used. The library (dist/index.js and the rest of dist/) stays tsc's output: a host app resolves its own
// copies of our dependencies. dist/cli-bundle-meta.json maps each chunk to its sources (the lazy-loading test reads
// it; it is not shipped).
import { build } from 'esbuild';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const CHUNKS = 'main/cli-chunks';

/**
 * zod's namespace object (`import { z } from 'zod'`) re-exports all of its ~50 locales, which no bundler can drop
 * from a namespace: 360 KiB parsed at every start. term-mcp's messages are English (zod's default, which zod
 * configures from its own locales/en.js, untouched): the `locales` namespace resolves to English alone.
 */
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

rmSync(path.join(dist, CHUNKS), { recursive: true, force: true });
const result = await build({
  entryPoints: { 'main/cli': path.join(dist, 'main', 'cli.js') },
  outdir: dist,
  chunkNames: `${CHUNKS}/[name]-[hash]`,
  // The entry replaces its own input: tsc wrote it a moment ago (npm run build always runs tsc first).
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Express and its middleware are CommonJS and call require() for Node's own modules; an ESM bundle has no require.
  banner: {
    js: "import { createRequire as __termMcpCreateRequire } from 'node:module'; const require = __termMcpCreateRequire(import.meta.url);",
  },
  // Optional in ws/express-era packages, never installed here; a require of them stays a runtime lookup.
  external: ['bufferutil', 'utf-8-validate'],
  legalComments: 'linked',
  // Whitespace and syntax only: V8 keeps each loaded chunk's source in memory (2–3 MiB less idle RSS, measured), while
  // names stay as written, so stack traces and error names read as in the sources; the source maps lead back to src/
  // (node --enable-source-maps).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  sourcesContent: false,
  plugins: [englishOnlyZodLocales],
  metafile: true,
  logLevel: 'warning',
});

writeFileSync(path.join(dist, 'cli-bundle-meta.json'), JSON.stringify(result.metafile));
// The bin must be executable on disk too (`npx term-mcp` in the clone runs it directly; tsc and esbuild write 0644).
chmodSync(path.join(dist, 'main', 'cli.js'), 0o755);
