import path from 'node:path';
import { NodeWorkspaceFS } from '../../../src/adapters/fs/node-workspace-fs.js';
import { WorkspaceResources } from '../../../src/application/resources/workspace-resources.js';
import { InvalidCursor } from '../../../src/domain/errors.js';
import {
  FileNotReadable,
  ResourceNotFound,
  ResourceNotText,
  ResourceTooLarge,
  UnsupportedResourceUri,
} from '../../../src/domain/workspace/workspace-errors.js';
import {
  FIXTURE_MAX_READ_BYTES,
  LISTED_FILES,
  makeHostileWorkspace,
  makeWorkspaceWith,
  type HostileWorkspace,
} from '../../adapters/fs/workspace-fixture.js';

describe('WorkspaceResources over a real workspace', () => {
  let ws: HostileWorkspace;
  let resources: WorkspaceResources;

  // Nothing here writes to the workspace, so one fixture serves the whole block.
  beforeAll(() => {
    ws = makeHostileWorkspace();
    resources = new WorkspaceResources({
      fs: new NodeWorkspaceFS({ root: ws.root, maxReadBytes: FIXTURE_MAX_READ_BYTES }),
    });
  });

  afterAll(() => ws.remove());

  test('lists every text-candidate file with a workspace URI, its relative name, a MIME type and its size', async () => {
    const { resources: listed, nextCursor } = await resources.list(undefined, 100);
    expect(nextCursor).toBeUndefined();
    expect(listed.map((resource) => resource.name)).toEqual(LISTED_FILES);
    expect(listed.find((resource) => resource.name === 'my résumé.txt')).toEqual({
      uri: 'workspace:///my%20r%C3%A9sum%C3%A9.txt',
      name: 'my résumé.txt',
      mimeType: 'text/plain',
      size: 17,
    });
  });

  test('maps the obvious extensions to MIME types and everything else to text/plain', async () => {
    const { resources: listed } = await resources.list(undefined, 100);
    const mimeOf = Object.fromEntries(listed.map((resource) => [resource.name, resource.mimeType]));
    expect(mimeOf).toMatchObject({
      'README.md': 'text/markdown',
      'data.json': 'application/json',
      'src/index.ts': 'text/x-typescript',
      'src/lib/util.js': 'text/javascript',
      'src/styles.css': 'text/css',
      'a.txt': 'text/plain',
      'binary.bin': 'text/plain',
    });
  });

  test('never puts the host path of the workspace into a listed URI or name', async () => {
    const { resources: listed } = await resources.list(undefined, 100);
    expect(JSON.stringify(listed)).not.toContain(ws.parent);
  });

  test('reads every listed URI back, or refuses it with a typed error', async () => {
    const { resources: listed } = await resources.list(undefined, 100);
    const outcomes: Record<string, string> = {};
    for (const { uri, name } of listed) {
      outcomes[name] = await resources.read(uri).then(
        () => 'read',
        (error: unknown) => (error as Error).constructor.name,
      );
    }
    expect(outcomes).toEqual({
      ...Object.fromEntries(LISTED_FILES.map((name) => [name, 'read'])),
      'binary.bin': ResourceNotText.name,
      'latin1.txt': ResourceNotText.name,
      'large.txt': ResourceTooLarge.name,
    });
  });

  test('reads a file with the URI echoed, its MIME type and its text', async () => {
    await expect(resources.read('workspace:///README.md')).resolves.toEqual({
      contents: [{ uri: 'workspace:///README.md', mimeType: 'text/markdown', text: '# Readme\n' }],
    });
  });

  test('reads a name given raw (unencoded spaces and accents), as the seed fixtures do', async () => {
    const result = await resources.read('workspace:///my résumé.txt');
    expect(result.contents[0].text).toBe('curriculum vitae\n');
  });

  test('reads an empty file as empty text', async () => {
    const result = await resources.read('workspace:///empty.txt');
    expect(result.contents[0].text).toBe('');
  });

  test('reads a file:// URI under the root as the same workspace file', async () => {
    const uri = `file://${path.join(ws.root, 'src', 'index.ts')}`;
    await expect(resources.read(uri)).resolves.toEqual({
      contents: [{ uri, mimeType: 'text/x-typescript', text: 'export const x = 1;\n' }],
    });
    await expect(resources.read(`file://localhost${path.join(ws.root, 'a.txt')}`)).resolves.toMatchObject({
      contents: [{ text: 'alpha\n' }],
    });
  });

  test('reports a missing file as ResourceNotFound naming the URI the client sent', async () => {
    const error = await resources.read('workspace:///missing.txt').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResourceNotFound);
    expect((error as ResourceNotFound).code).toBe('resource_not_found');
    expect((error as ResourceNotFound).details).toEqual({ uri: 'workspace:///missing.txt' });
  });

  test('refuses the workspace root and FIFOs as not readable files', async () => {
    await expect(resources.read('workspace:///')).rejects.toBeInstanceOf(FileNotReadable);
    await expect(resources.read('workspace:///pipe.fifo')).rejects.toBeInstanceOf(FileNotReadable);
  });

  test('offers one resource template for workspace files', () => {
    expect(resources.templates()).toEqual([
      {
        uriTemplate: 'workspace:///{+path}',
        name: 'workspace-file',
        title: 'Workspace file',
        description: expect.any(String),
        mimeType: 'text/plain',
      },
    ]);
  });
});

describe('WorkspaceResources URI mapping', () => {
  let ws: HostileWorkspace;
  let resources: WorkspaceResources;

  // Nothing here writes to the workspace, so one fixture serves the whole block.
  beforeAll(() => {
    ws = makeHostileWorkspace();
    resources = new WorkspaceResources({
      fs: new NodeWorkspaceFS({ root: ws.root, maxReadBytes: FIXTURE_MAX_READ_BYTES }),
    });
  });

  afterAll(() => ws.remove());

  test.each([
    ['a.txt', 'workspace:///a.txt'],
    ['src/lib/util.js', 'workspace:///src/lib/util.js'],
    ['my résumé.txt', 'workspace:///my%20r%C3%A9sum%C3%A9.txt'],
    ['what?#100%.txt', 'workspace:///what%3F%23100%25.txt'],
  ])('encodes %j segment by segment as %s and parses it back', (relativePath, uri) => {
    expect(resources.toUri(relativePath)).toBe(uri);
    expect(resources.parseUri(uri)).toBe(relativePath);
  });

  test('decodes percent-encoding exactly once', () => {
    expect(resources.parseUri('workspace:///%252e%252e')).toBe('%2e%2e');
  });

  test('maps a file:// URI under the root to its relative path, and the root itself to the empty path', () => {
    expect(resources.parseUri(`file://${ws.root}/src/index.ts`)).toBe('src/index.ts');
    expect(resources.parseUri(`file://${ws.root}`)).toBe('');
  });

  test('accepts the scheme in any case', () => {
    expect(resources.parseUri('WorkSpace:///a.txt')).toBe('a.txt');
  });

  test('refuses another scheme with UnsupportedResourceUri naming the URI and the reason', () => {
    expect(() => resources.parseUri('https://example.com/a.txt')).toThrow(UnsupportedResourceUri);
    expect(() => resources.parseUri('https://example.com/a.txt')).toThrow(
      expect.objectContaining({
        code: 'unsupported_resource_uri',
        details: { uri: 'https://example.com/a.txt', reason: 'only workspace:/// and file:// URIs are served' },
      }),
    );
  });
});

describe('WorkspaceResources refuses hostile URIs without reading outside the workspace', () => {
  let ws: HostileWorkspace;
  let resources: WorkspaceResources;

  beforeAll(() => {
    ws = makeHostileWorkspace();
    resources = new WorkspaceResources({
      fs: new NodeWorkspaceFS({ root: ws.root, maxReadBytes: FIXTURE_MAX_READ_BYTES }),
    });
  });

  afterAll(() => ws.remove());

  const parent = (): string => ws.parent;
  const root = (): string => ws.root;

  /** [label, URI builder, expected error code]. Builders run after the fixture exists, since paths are random. */
  const HOSTILE: Array<[string, () => string, string]> = [
    ['parent traversal', () => 'workspace:///../secret.txt', 'path_outside_workspace'],
    ['traversal into the prefix sibling', () => 'workspace:///../ws-evil/secret.txt', 'path_outside_workspace'],
    ['encoded dots', () => 'workspace:///%2e%2e/secret.txt', 'path_outside_workspace'],
    ['encoded dots and slash', () => 'workspace:///%2e%2e%2fsecret.txt', 'path_outside_workspace'],
    [
      'upper-case encoding into the sibling',
      () => 'workspace:///%2E%2E%2Fws-evil%2Fsecret.txt',
      'path_outside_workspace',
    ],
    ['double-encoded dots stay literal', () => 'workspace:///%252e%252e%252fsecret.txt', 'resource_not_found'],
    ['detour through a subdirectory', () => 'workspace:///src/../../secret.txt', 'path_outside_workspace'],
    [
      'detour through a symlinked directory',
      () => 'workspace:///linkdir-in/../../secret.txt',
      'path_outside_workspace',
    ],
    ['absolute path after the triple slash', () => 'workspace:////etc/passwd', 'path_outside_workspace'],
    ['encoded absolute path', () => 'workspace:///%2fetc%2fpasswd', 'path_outside_workspace'],
    [
      'absolute host path of the secret',
      () => `workspace:///${encodeURI(path.join(parent(), 'secret.txt'))}`,
      'path_outside_workspace',
    ],
    ['symlink to a file outside', () => 'workspace:///link-out.txt', 'path_outside_workspace'],
    [
      'symlinked parent directory pointing outside',
      () => 'workspace:///linkdir-out/secret.txt',
      'path_outside_workspace',
    ],
    ['file URI of /etc/passwd', () => 'file:///etc/passwd', 'unsupported_resource_uri'],
    [
      'file URI of the prefix sibling',
      () => `file://${path.join(parent(), 'ws-evil', 'secret.txt')}`,
      'unsupported_resource_uri',
    ],
    ['file URI of the parent', () => `file://${path.join(parent(), 'secret.txt')}`, 'unsupported_resource_uri'],
    ['file URI climbing out of the root', () => `file://${root()}/../secret.txt`, 'path_outside_workspace'],
    [
      'file URI climbing out with encoded dots',
      () => `file://${root()}/%2e%2e/ws-evil/secret.txt`,
      'path_outside_workspace',
    ],
    ['file URI with a remote host', () => 'file://evil.example/etc/passwd', 'unsupported_resource_uri'],
    ['encoded NUL truncation', () => 'workspace:///a.txt%00.md', 'invalid_argument'],
    ['encoded NUL alone', () => 'workspace:///%00', 'invalid_argument'],
    ['raw NUL', () => 'workspace:///a.txt\u0000', 'unsupported_resource_uri'],
    ['backslash traversal', () => 'workspace:///..\\secret.txt', 'unsupported_resource_uri'],
    ['encoded backslash traversal stays a literal name', () => 'workspace:///..%5csecret.txt', 'resource_not_found'],
    ['host in a workspace URI', () => 'workspace://host/a.txt', 'unsupported_resource_uri'],
    ['localhost in a workspace URI', () => 'workspace://localhost/a.txt', 'unsupported_resource_uri'],
    ['http URI', () => 'http://x/secret.txt', 'unsupported_resource_uri'],
    ['empty URI', () => '', 'unsupported_resource_uri'],
    ['bare relative path', () => '../secret.txt', 'unsupported_resource_uri'],
    ['scheme without authority', () => 'workspace:../secret.txt', 'unsupported_resource_uri'],
    ['query string', () => 'workspace:///a.txt?x=../../secret.txt', 'unsupported_resource_uri'],
    ['fragment', () => 'workspace:///a.txt#../secret.txt', 'unsupported_resource_uri'],
    ['malformed percent-encoding', () => 'workspace:///%zz', 'unsupported_resource_uri'],
    ['overlong UTF-8 dots', () => 'workspace:///%c0%ae%c0%ae/secret.txt', 'unsupported_resource_uri'],
    ['newline injection', () => 'workspace:///a.txt\n../secret.txt', 'unsupported_resource_uri'],
    ['upper-case scheme with traversal', () => 'WORKSPACE:///../secret.txt', 'path_outside_workspace'],
  ];

  test('covers at least twenty hostile URIs', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(20);
  });

  test.each(HOSTILE)('refuses %s', async (_label, buildUri, expectedCode) => {
    const uri = buildUri();
    const outcome = await resources.read(uri).then(
      (result) => ({ leaked: JSON.stringify(result) }),
      (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
    );
    expect(outcome).toEqual({ code: expectedCode, message: expect.any(String) });
    const message = 'message' in outcome ? outcome.message : '';
    expect(message).not.toMatch(/TOP-SECRET/);
    // The host path may only appear when the client itself sent it.
    if (!uri.includes(parent())) expect(message).not.toContain(parent());
  });
});

describe('WorkspaceResources pagination', () => {
  const SEVEN_FILES = {
    'one.txt': '1',
    'two.md': '2',
    'three/a.txt': '3',
    'three/b.txt': '4',
    'four.json': '{}',
    'five.ts': '5',
    'six/seven.txt': '7',
  };
  let workspace: { root: string; remove(): void };
  let resources: WorkspaceResources;

  beforeEach(() => {
    workspace = makeWorkspaceWith(SEVEN_FILES);
    resources = new WorkspaceResources({ fs: new NodeWorkspaceFS({ root: workspace.root, maxReadBytes: 100 }) });
  });

  afterEach(() => workspace.remove());

  test('pages through seven files three at a time in exactly three pages, in full-listing order', async () => {
    const full = await resources.list(undefined, 100);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await resources.list(cursor, 3);
      pages.push(page.resources.map((resource) => resource.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);

    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(full.resources.map((resource) => resource.name));
    expect(full.resources).toHaveLength(7);
  });

  test('gives no next cursor when a page ends exactly at the last file', async () => {
    const first = await resources.list(undefined, 4);
    const second = await resources.list(first.nextCursor, 3);
    expect(second.resources).toHaveLength(3);
    expect(second.nextCursor).toBeUndefined();
  });

  test.each([['not-a-cursor!'], [''], ['eyJ2IjoxfQ'], ['e30'], ['eyJ2IjoxLCJhZnRlciI6Im9uZS50eHQifQ==']])(
    'refuses the cursor %j with InvalidCursor',
    async (cursor) => {
      await expect(resources.list(cursor, 3)).rejects.toBeInstanceOf(InvalidCursor);
    },
  );
});
