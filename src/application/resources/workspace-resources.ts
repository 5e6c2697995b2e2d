import {
  ResourceNotFound,
  UnsupportedResourceUri,
  WorkspaceFileNotFound,
} from '../../domain/workspace/workspace-errors.js';
import type { WorkspaceFS } from '../../domain/workspace/workspace-fs.js';
import type { ResourceProvider } from '../mcp/capability-ports.js';
import { decodeCursor, encodeCursor } from '../pagination/cursor.js';

/** Canonical resource URIs carry the path relative to the workspace, so they never reveal where the workspace is. */
export const WORKSPACE_URI_PREFIX = 'workspace:///';

export type WorkspaceResource = { uri: string; name: string; mimeType: string; size: number };

export type WorkspaceResourceTemplate = {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
};

export type TextResourceContents = { uri: string; mimeType: string; text: string };

const DEFAULT_MIME_TYPE = 'text/plain';
const MIME_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.ts': 'text/x-typescript',
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.css': 'text/css',
};

const WORKSPACE_FILE_TEMPLATE: WorkspaceResourceTemplate = {
  uriTemplate: `${WORKSPACE_URI_PREFIX}{+path}`,
  name: 'workspace-file',
  title: 'Workspace file',
  description:
    'A UTF-8 text file inside the configured workspace, addressed by its path relative to the workspace root.',
  mimeType: DEFAULT_MIME_TYPE,
};

/**
 * Use case: the workspace's text files as MCP resources (2026-07-28 server/resources). URIs are parsed and
 * percent-decoded exactly once here; whether the decoded path stays inside the workspace is decided only by the
 * `WorkspaceFS` port, on the resolved path, so no encoding trick can pass a check made before decoding.
 */
export class WorkspaceResources implements ResourceProvider {
  private readonly fs: WorkspaceFS;

  constructor({ fs }: { fs: WorkspaceFS }) {
    this.fs = fs;
  }

  async list(
    cursor: string | undefined,
    pageSize: number,
  ): Promise<{ resources: WorkspaceResource[]; nextCursor?: string }> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    const { entries, more } = await this.fs.list(after, pageSize);
    const resources = entries.map((entry) => ({
      uri: this.toUri(entry.path),
      name: entry.path,
      mimeType: mimeTypeOf(entry.path),
      size: entry.size,
    }));
    const last = entries.at(-1);
    return more && last !== undefined ? { resources, nextCursor: encodeCursor(last.path) } : { resources };
  }

  templates(): readonly WorkspaceResourceTemplate[] {
    return [WORKSPACE_FILE_TEMPLATE];
  }

  /** Contents carry the URI exactly as the client asked for it, so the client can match them to its request. */
  async read(uri: string): Promise<{ contents: [TextResourceContents] }> {
    const relativePath = this.parseUri(uri);
    try {
      const file = await this.fs.readText(relativePath);
      return { contents: [{ uri, mimeType: mimeTypeOf(file.path), text: file.text }] };
    } catch (error) {
      if (error instanceof WorkspaceFileNotFound) throw new ResourceNotFound(uri);
      throw error;
    }
  }

  /** RFC 3986: each segment percent-encoded on its own, `/` kept as the separator. */
  toUri(relativePath: string): string {
    return WORKSPACE_URI_PREFIX + relativePath.split('/').map(encodeURIComponent).join('/');
  }

  /**
   * The workspace-relative path named by `workspace:///<path>`, or by a `file://` URI whose decoded path is under the
   * workspace root. The result is NOT known to be inside the workspace yet (`..`, `/etc`, NUL survive on purpose).
   */
  parseUri(uri: string): string {
    if (hasControlCharacterOrBackslash(uri)) {
      throw new UnsupportedResourceUri(uri, 'control characters and backslashes are not allowed');
    }
    const parts = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)(.*)$/.exec(uri);
    if (parts === null) throw new UnsupportedResourceUri(uri, 'expected scheme://authority/path');
    const [, scheme = '', authority = '', encodedPath = ''] = parts;
    if (/[?#]/.test(authority + encodedPath)) {
      throw new UnsupportedResourceUri(uri, 'queries and fragments are not supported');
    }
    switch (scheme.toLowerCase()) {
      case 'workspace':
        if (authority !== '') throw new UnsupportedResourceUri(uri, 'workspace URIs have no host');
        if (!encodedPath.startsWith('/')) throw new UnsupportedResourceUri(uri, 'missing path');
        return percentDecode(uri, encodedPath.slice(1));
      case 'file':
        if (authority !== '' && authority.toLowerCase() !== 'localhost') {
          throw new UnsupportedResourceUri(uri, 'file URIs must name a local path');
        }
        return this.relativeToRoot(uri, percentDecode(uri, encodedPath));
      default:
        throw new UnsupportedResourceUri(uri, 'only workspace:/// and file:// URIs are served');
    }
  }

  private relativeToRoot(uri: string, absolutePath: string): string {
    const root = this.fs.root;
    if (absolutePath === root) return '';
    const rootPrefix = root.endsWith('/') ? root : `${root}/`;
    if (!absolutePath.startsWith(rootPrefix)) throw new UnsupportedResourceUri(uri, 'file URI outside the workspace');
    return absolutePath.slice(rootPrefix.length);
  }
}

export function mimeTypeOf(relativePath: string): string {
  const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return DEFAULT_MIME_TYPE;
  return MIME_TYPE_BY_EXTENSION[name.slice(dot).toLowerCase()] ?? DEFAULT_MIME_TYPE;
}

function percentDecode(uri: string, encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new UnsupportedResourceUri(uri, 'malformed percent-encoding');
  }
}

/** Raw C0 controls, DEL and `\` are never valid in a URI (RFC 3986 section 2); encoded forms are judged after decoding. */
function hasControlCharacterOrBackslash(uri: string): boolean {
  for (const char of uri) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f || char === '\\') return true;
  }
  return false;
}
