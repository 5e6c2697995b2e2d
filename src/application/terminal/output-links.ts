import type { OutputStream } from '../../domain/execution/execution-types.js';
import type { ExecutionReceipt } from '../../domain/terminal/receipt-types.js';
import { outputResourceUri } from '../resources/output-resources.js';
import type { ResourceLink } from '../tools/tool-definition.js';

/**
 * Links to the whole output of a receipt's command, one per stream that wrote something (issue 24): the receipt shows
 * a head and a tail; `resources/read` of the link returns any byte range, whose SHA-256 over all of it is the
 * receipt's `output.<stream>.sha256`.
 */
export function outputLinks(receipt: ExecutionReceipt): ResourceLink[] {
  const { output } = receipt;
  if (output === undefined) return [];
  return (['stdout', 'stderr'] as const satisfies readonly OutputStream[])
    .filter((stream) => output[stream].kept_bytes > 0)
    .map((stream) => ({
      type: 'resource_link',
      uri: outputResourceUri(receipt.session_id, receipt.command_id, stream),
      name: `${stream} of command ${receipt.command_id}`,
      description: `${output[stream].kept_bytes} bytes (sha256 ${output[stream].sha256}); add ?offset=&length= to read a byte range.`,
      mimeType: 'text/plain',
      size: output[stream].kept_bytes,
    }));
}
