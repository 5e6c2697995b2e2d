import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

/**
 * The wiring is checked by the compiler: each case is a module written as the server's own are, compiled by `tsc`
 * (the compiler API, with the project's options), and the test reads the diagnostics it reports.
 */
const SRC_MAIN = path.resolve(__dirname, '../../src/main');
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'typed-wiring-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function compile(name: string, body: string): string[] {
  const file = path.join(scratch, `${name}.ts`);
  const header = [
    `import { typedModule } from ${JSON.stringify(path.join(SRC_MAIN, 'typed-module.js'))};`,
    `import { TYPES } from ${JSON.stringify(path.join(SRC_MAIN, 'types.js'))};`,
    `import { token } from ${JSON.stringify(path.join(SRC_MAIN, 'token.js'))};`,
    `import type { Config } from ${JSON.stringify(path.join(SRC_MAIN, 'config.js'))};`,
    `import type { PathInspector } from ${JSON.stringify(path.resolve(SRC_MAIN, '../domain/policy/path-inspector.js'))};`,
    `import type { PolicySettings } from ${JSON.stringify(path.resolve(SRC_MAIN, '../application/policy/policy-settings.js'))};`,
    `import { DefaultPolicyEngine } from ${JSON.stringify(path.resolve(SRC_MAIN, '../application/policy/default-policy-engine.js'))};`,
    'interface Engine { run(): number }',
    'interface Store { keep(value: string): void }',
    "const ENGINE = token<Engine>('test.Engine');",
    "const STORE = token<Store>('test.Store');",
    "const NAME = token<string>('test.Name');",
    'export const unused = [TYPES, ENGINE, STORE, NAME, DefaultPolicyEngine];',
  ].join('\n');
  writeFileSync(file, `${header}\n${body}\n`);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
  });
  const source = program.getSourceFile(file);
  return ts
    .getPreEmitDiagnostics(program, source)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('typed service identifiers: the compiler checks the wiring', () => {
  test('a module whose factory and token list agree compiles', () => {
    const errors = compile(
      'agree',
      `typedModule(({ bind }) => {
        bind(NAME).toConstantValue('term');
        bind(STORE).toResolvedValue(() => ({ keep: () => undefined }));
        bind(ENGINE).toResolvedValue((store: Store, name: string) => ({ run: () => { store.keep(name); return 1; } }), [STORE, NAME]);
        bind(TYPES.PolicyEngine).toResolvedValue(
          (inspector: PathInspector, settings: PolicySettings, config: Config) => new DefaultPolicyEngine(inspector, settings, config.maxCommandLength),
          [TYPES.PathInspector, TYPES.PolicySettings, TYPES.Config],
        );
      });`,
    );
    expect(errors).toEqual([]);
  });

  test('two dependencies swapped in the token list fail to compile', () => {
    const errors = compile(
      'swapped',
      `typedModule(({ bind }) => {
        bind(ENGINE).toResolvedValue((store: Store, name: string) => ({ run: () => { store.keep(name); return 1; } }), [NAME, STORE]);
      });`,
    );
    expect(errors.join('\n')).toMatch(
      /Token<string>.*is not assignable to .*Store|Token<Store>.*is not assignable to .*string/s,
    );
  });

  test("the server's own PolicyEngine binding with its first two tokens swapped fails to compile", () => {
    const errors = compile(
      'server-swapped',
      `typedModule(({ bind }) => {
        bind(TYPES.PolicyEngine).toResolvedValue(
          (inspector: PathInspector, settings: PolicySettings, config: Config) => new DefaultPolicyEngine(inspector, settings, config.maxCommandLength),
          [TYPES.PolicySettings, TYPES.PathInspector, TYPES.Config],
        );
      });`,
    );
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(/PolicySettings|PathInspector/);
  });

  test('a token list one dependency short fails to compile', () => {
    const errors = compile(
      'short',
      `typedModule(({ bind }) => {
        bind(ENGINE).toResolvedValue((store: Store, name: string) => ({ run: () => { store.keep(name); return 1; } }), [STORE]);
      });`,
    );
    expect(errors.length).toBeGreaterThan(0);
  });

  test("a value that is not of the token's type fails to compile", () => {
    const errors = compile(
      'wrong-value',
      `typedModule(({ bind }) => {
        bind(NAME).toConstantValue(42);
        bind(TYPES.Config).toResolvedValue((name: string) => ({ name }), [NAME]);
      });`,
    );
    expect(errors).toHaveLength(2);
  });

  test("createTermMcp's ports are checked against their port types", () => {
    const termMcp = JSON.stringify(path.join(SRC_MAIN, 'term-mcp.js'));
    const workspaceFs = JSON.stringify(path.resolve(SRC_MAIN, '../adapters/fs/node-workspace-fs.js'));
    const right = compile(
      'ports-right',
      `import { createTermMcp } from ${termMcp};\nimport { NodeWorkspaceFS } from ${workspaceFs};\n` +
        `export const host = () => createTermMcp({ ports: { workspaceFs: new NodeWorkspaceFS({ root: '/srv', maxReadBytes: 1 }) } });`,
    );
    expect(right).toEqual([]);
    const wrong = compile(
      'ports-wrong',
      `import { createTermMcp } from ${termMcp};\nimport { NodeWorkspaceFS } from ${workspaceFs};\n` +
        `export const host = () => createTermMcp({ ports: { policyEngine: new NodeWorkspaceFS({ root: '/srv', maxReadBytes: 1 }) } });`,
    );
    expect(wrong.join('\n')).toMatch(/NodeWorkspaceFS.*PolicyEngine/s);
  });
});
