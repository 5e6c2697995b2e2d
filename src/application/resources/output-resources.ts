import { ResourceNotFound, UnsupportedResourceUri } from '../../domain/workspace/workspace-errors.js';
import type { OutputStream } from '../../domain/execution/execution-types.js';
import type { OutputArchive } from '../terminal/output-archive.js';

/** `terminal-output://<session_id>/<command_id>/<stream>`, optionally `?offset=<byte>&length=<bytes>`. */
export const OUTPUT_URI_SCHEME = 'terminal-output:';

export const OUTPUT_RESOURCE_TEMPLATE = Object.freeze({
  uriTemplate: 'terminal-output://{session_id}/{command_id}/{stream}{?offset,length}',
  name: 'terminal-output',
  title: 'Whole output of a finished command',
  description:
    "The bytes a command wrote to stdout or stderr, exactly (text when the range is valid UTF-8, else base64), from byte offset (default 0) for length bytes (default and maximum: the read limit). Its SHA-256 is the receipt's output.<stream>.sha256. Linked from terminal_execute and terminal_receipt results.",
  mimeType: 'text/plain',
});

export function outputResourceUri(sessionId: string, commandId: string, stream: OutputStream): string {
  return `terminal-output://${encodeURIComponent(sessionId)}/${encodeURIComponent(commandId)}/${stream}`;
}

type OutputContents = { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

const OUTPUT_URI = /^terminal-output:\/\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/(stdout|stderr)(?:\?([^#]*))?$/;
const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;

/**
 * Use case: the archived output of finished commands as resources (issue 24). Any byte range reads back exactly: as
 * text when the range is valid UTF-8 (decoding it again gives the same bytes; a BOM is kept), else as a base64 blob.
 * The output is the command's own bytes, unredacted (a redacted copy could not match the receipt's digest); only the
 * principal that ran the command finds it.
 */
export class OutputResources {
  constructor(
    private readonly archive: OutputArchive,
    /** Largest range one read returns (TERM_MCP_MAX_RESOURCE_BYTES). */
    private readonly maxReadBytes: number,
  ) {}

  handles(uri: string): boolean {
    return uri.toLowerCase().startsWith(OUTPUT_URI_SCHEME);
  }

  async read(uri: string, principal: string | undefined): Promise<{ contents: [OutputContents] }> {
    const match = OUTPUT_URI.exec(uri);
    if (match === null)
      throw new UnsupportedResourceUri(uri, 'expected terminal-output://<session_id>/<command_id>/<stdout|stderr>');
    const [, sessionId = '', commandId = '', stream = 'stdout', query] = match;
    const output = this.archive.find(sessionId, commandId, stream as OutputStream, principal);
    if (output === undefined) throw new ResourceNotFound(uri);
    const range = this.rangeOf(uri, query, output.keptBytes);
    const bytes = Buffer.from(await output.readBytes(range.offset, range.length));
    const text = exactText(bytes);
    return {
      contents: [
        text === undefined
          ? { uri, mimeType: 'application/octet-stream', blob: bytes.toString('base64') }
          : { uri, mimeType: 'text/plain', text },
      ],
    };
  }

  private rangeOf(uri: string, query: string | undefined, keptBytes: number): { offset: number; length: number } {
    let offset = 0;
    let length: number | undefined;
    for (const part of query === undefined || query === '' ? [] : query.split('&')) {
      const [name, value = ''] = part.split('=');
      if (!DECIMAL.test(value)) throw new UnsupportedResourceUri(uri, `${name ?? ''} must be a whole number of bytes`);
      if (name === 'offset') offset = Number(value);
      else if (name === 'length') length = Number(value);
      else throw new UnsupportedResourceUri(uri, 'only offset and length may be given');
    }
    if (offset > keptBytes)
      throw new UnsupportedResourceUri(uri, `offset is past the end of the output (${keptBytes} bytes)`);
    if (length !== undefined && length > this.maxReadBytes) {
      throw new UnsupportedResourceUri(uri, `length is at most ${this.maxReadBytes} bytes per read`);
    }
    return { offset, length: Math.min(length ?? this.maxReadBytes, keptBytes - offset) };
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of the bytes when they are valid UTF-8 (so encoding it gives the same bytes), else undefined. */
function exactText(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
