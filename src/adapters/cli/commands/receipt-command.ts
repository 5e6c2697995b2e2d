import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ReceiptInspection,
  summarizeReceipt,
  type ReceiptSummary,
} from '../../../application/receipts/receipt-inspection.js';
import { ConfigurationError } from '../../../domain/errors.js';
import { ReceiptNotRedactable } from '../../../domain/terminal/receipt-errors.js';
import type { ReceiptSigner } from '../../../domain/terminal/receipt-signer.js';
import type { CliContext } from '../cli-context.js';
import { CommandUsageError, EXIT, parseBooleanFlags, type CommandIo } from './command-io.js';

export const RECEIPT_USAGE = `Usage: term-mcp receipt <action> <file> [flags]     (<file> may be - for standard input)

Actions:
  validate <file> [--structure-only] [--json]
                   exit 0 when the receipt matches schema 1.0 and its signature verifies with the
                   configured key; 1 when it does not; 2 when the file cannot be read or parsed
  show <file> [--json]
                   id, status, command, cwd, risk, approval, times, duration, exit code or signal
  redact <file>    prints the copy redacted for sharing (command, cwd, stdout, stderr replaced,
                   policy.argv emptied), re-signed; only a valid signed receipt can be redacted

The key is the server's receipt key: TERM_MCP_RECEIPT_KEY, else AUTH_TOKEN, else TERM_MCP_TOKEN.
`;

const NO_KEY_MESSAGE =
  'no receipt key is configured: set TERM_MCP_RECEIPT_KEY (or AUTH_TOKEN / TERM_MCP_TOKEN) to the key the server signs receipts with';
/** Far above any receipt (output is capped per command); stops a wrong path from filling memory. */
const MAX_RECEIPT_FILE_BYTES = 64 * 1024 * 1024;

/** A failure to read or parse the input, or a configuration problem: exit 2 with this message. */
class InputProblem extends Error {}

/** `term-mcp receipt validate|show|redact <file>` (seed `receipt validate|show`, plus redact). */
export async function runReceiptCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const [action, ...rest] = argv;
  try {
    switch (action) {
      case 'validate':
        return await validate(rest, io);
      case 'show':
        return await show(rest, io);
      case 'redact':
        return await redact(rest, io);
      case '--help':
      case '-h':
      case 'help':
        io.stdout.write(RECEIPT_USAGE);
        return EXIT.ok;
      case undefined:
        throw new CommandUsageError('missing action');
      default:
        throw new CommandUsageError(`unknown action: ${action}`);
    }
  } catch (error) {
    if (error instanceof CommandUsageError) {
      io.stderr.write(`term-mcp receipt: ${error.message}\n\n${RECEIPT_USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof InputProblem) {
      io.stderr.write(`term-mcp receipt: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

async function validate(argv: readonly string[], io: CommandIo): Promise<number> {
  const { file, flags } = oneFile(argv, ['structure-only', 'json']);
  const payload = await readReceipt(file, io);
  const structureOnly = flags.has('structure-only');
  const inspection = structureOnly ? new ReceiptInspection(undefined) : await inspectionWithConfiguredKey(io);
  const report = inspection.report(payload);
  const valid = report.schema_valid && (structureOnly || report.signature_valid);
  if (flags.has('json')) {
    io.stdout.write(`${JSON.stringify(structureOnly ? { ...report, signature_valid: null } : report, null, 2)}\n`);
  } else if (!report.schema_valid) {
    io.stdout.write(
      `invalid: the receipt does not match schema 1.0\n${report.errors.map((error) => `  - ${error}\n`).join('')}`,
    );
  } else if (structureOnly) {
    io.stdout.write('valid: the receipt matches schema 1.0 (signature not checked)\n');
  } else {
    io.stdout.write(
      report.signature_valid
        ? 'valid: schema 1.0, signature verified\n'
        : 'invalid: the signature does not verify with the configured key\n',
    );
  }
  return valid ? EXIT.ok : EXIT.negative;
}

async function show(argv: readonly string[], io: CommandIo): Promise<number> {
  const { file, flags } = oneFile(argv, ['json']);
  const payload = await readReceipt(file, io);
  const signer = await configuredSigner(io);
  const inspection = new ReceiptInspection(signer);
  const structure = inspection.checkStructure(payload);
  if (!structure.valid) {
    io.stderr.write(
      `term-mcp receipt: ${file} is not a schema 1.0 receipt\n${structure.errors.map((error) => `  - ${error}\n`).join('')}`,
    );
    return EXIT.negative;
  }
  const summary = summarizeReceipt(structure.receipt);
  const seal =
    signer === undefined
      ? 'not checked (no receipt key configured)'
      : inspection.report(payload).signature_valid
        ? 'verified'
        : 'BAD SIGNATURE';
  if (flags.has('json')) {
    io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    io.stdout.write(formatSummary(summary, seal));
  }
  return EXIT.ok;
}

async function redact(argv: readonly string[], io: CommandIo): Promise<number> {
  const { file } = oneFile(argv, []);
  const payload = await readReceipt(file, io);
  try {
    const redacted = (await inspectionWithConfiguredKey(io)).redactForSharing(payload);
    io.stdout.write(`${JSON.stringify(redacted, null, 2)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ReceiptNotRedactable)) throw error;
    const reasons = (error.details.errors as string[] | undefined) ?? [];
    io.stderr.write(`term-mcp receipt: ${error.message}\n${reasons.map((reason) => `  - ${reason}\n`).join('')}`);
    return EXIT.negative;
  }
}

function formatSummary(summary: ReceiptSummary, seal: string): string {
  const ending =
    summary.signal !== null
      ? `signal ${summary.signal}`
      : summary.exit_code !== null
        ? `exit code ${summary.exit_code}`
        : 'no exit code';
  const rows: Array<[string, string]> = [
    ['id', summary.id],
    ['status', summary.status],
    ['command', summary.command],
    ['cwd', summary.cwd],
    ['risk', summary.risk],
    ['approved', summary.approved ? 'yes' : 'no'],
    ['started', summary.started_at],
    ['finished', summary.finished_at],
    ['duration', `${summary.duration_ms} ms`],
    ['ended with', ending],
    ['output', summary.output_truncated ? 'truncated' : 'complete'],
    ['signature', seal],
  ];
  return rows.map(([name, value]) => `${name.padEnd(11)}${value}\n`).join('');
}

function oneFile(
  argv: readonly string[],
  allowedFlags: readonly string[],
): { file: string; flags: ReadonlySet<string> } {
  const { positionals, flags } = parseBooleanFlags(argv, allowedFlags);
  const [file, extra] = positionals;
  if (file === undefined) throw new CommandUsageError('missing receipt file');
  if (extra !== undefined) throw new CommandUsageError(`unexpected argument: ${extra}`);
  return { file, flags };
}

async function readReceipt(file: string, io: CommandIo): Promise<unknown> {
  const text = file === '-' ? await readStandardInput(io) : await readReceiptFile(file, io.cwd);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputProblem(
      `${file === '-' ? 'standard input' : file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function readStandardInput(io: CommandIo): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    size += bytes.length;
    if (size > MAX_RECEIPT_FILE_BYTES)
      throw new InputProblem(`cannot read standard input: larger than ${MAX_RECEIPT_FILE_BYTES} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readReceiptFile(file: string, cwd: string): Promise<string> {
  const absolute = path.resolve(cwd, file);
  try {
    const info = await stat(absolute);
    if (!info.isFile()) throw new InputProblem(`cannot read ${file}: not a regular file`);
    if (info.size > MAX_RECEIPT_FILE_BYTES)
      throw new InputProblem(`cannot read ${file}: larger than ${MAX_RECEIPT_FILE_BYTES} bytes`);
    return await readFile(absolute, 'utf8');
  } catch (error) {
    if (error instanceof InputProblem) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new InputProblem(`cannot read ${file}: ${reason}`);
  }
}

/** The signer of the server's receipt key, from the same configuration the server reads; undefined when none is set or kept. */
async function configuredSigner(io: CommandIo): Promise<ReceiptSigner | undefined> {
  try {
    return await io.services.receiptSigner({ env: io.env, cwd: io.cwd, flags: {}, stderr: io.stderr });
  } catch (error) {
    if (error instanceof ConfigurationError) throw new InputProblem(`configuration error: ${error.message}`);
    if (error instanceof Error && 'code' in error)
      throw new InputProblem(`cannot read the receipt key: ${error.message}`);
    throw error;
  }
}

async function inspectionWithConfiguredKey(io: CommandIo): Promise<ReceiptInspection> {
  const signer = await configuredSigner(io);
  if (signer === undefined)
    throw new InputProblem(`${NO_KEY_MESSAGE} (or pass --structure-only to check the schema alone)`);
  return new ReceiptInspection(signer);
}

/** The command table's entry point (cli-commands.ts): the table has checked the flags; this reads the rest. */
export function run(context: CliContext): Promise<number> {
  return runReceiptCommand(context.argv, {
    stdin: process.stdin,
    stdout: context.stdout,
    stderr: context.stderr,
    env: context.env,
    cwd: context.cwd,
    services: context.services,
  });
}
