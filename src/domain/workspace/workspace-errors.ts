import { DomainError } from '../errors.js';

/*
 * Errors of the workspace port and the resources built on it. A message names only what the client sent (a path
 * relative to the workspace, or its URI), never the host path of the workspace root.
 */

/** No resource behind a URI the client asked for. */
export class ResourceNotFound extends DomainError {
  readonly code = 'resource_not_found';
  constructor(uri: string) {
    super(`Resource not found: ${uri}`, { uri }, 'List resources to find a valid URI.');
  }
}

/** No file at a workspace-relative path (the port's view; the resources use case reports `ResourceNotFound`). */
export class WorkspaceFileNotFound extends DomainError {
  readonly code = 'workspace_file_not_found';
  constructor(path: string) {
    super(`No file at ${path} in the workspace`, { path });
  }
}

/** A path that escapes the workspace (traversal, absolute path elsewhere, or a symlink resolving outside). */
export class PathOutsideWorkspace extends DomainError {
  readonly code = 'path_outside_workspace';
  constructor(path: string) {
    super(
      `Path is outside the configured workspace: ${path}`,
      { path },
      'Use a path relative to the workspace root that stays inside it.',
    );
  }
}

export type UnreadableReason = 'not_a_regular_file' | 'permission_denied' | 'unresolvable_symlink';

/** The path exists inside the workspace but is not something we read: a directory, FIFO, device, or forbidden. */
export class FileNotReadable extends DomainError {
  readonly code = 'file_not_readable';
  constructor(path: string, reason: UnreadableReason) {
    super(`Not a readable workspace file: ${path} (${reason.replaceAll('_', ' ')})`, { path, reason });
  }
}

/** The file is binary or not valid UTF-8; only text is served. */
export class ResourceNotText extends DomainError {
  readonly code = 'resource_not_text';
  constructor(path: string) {
    super(`Not UTF-8 text: ${path}`, { path }, 'Only UTF-8 text files without NUL bytes can be read.');
  }
}

export class ResourceTooLarge extends DomainError {
  readonly code = 'resource_too_large';
  constructor(path: string, size: number, limit: number) {
    super(
      `File is larger than the ${limit}-byte read limit: ${path}`,
      { path, size, limit },
      'Read a smaller file, or inspect this one with a bounded terminal command.',
    );
  }
}

/** A URI with a scheme or shape we do not serve (only `workspace:///…` and `file://` under the workspace). */
export class UnsupportedResourceUri extends DomainError {
  readonly code = 'unsupported_resource_uri';
  constructor(uri: string, reason: string) {
    super(
      `Unsupported resource URI (${reason}): ${uri}`,
      { uri, reason },
      'Use a workspace:///<relative path> URI from resources/list.',
    );
  }
}
