import { z } from 'zod';
import { POLICY_MODES } from '../../domain/policy/policy-types.js';

/*
 * Output schemas of the terminal tools (exported as `outputSchema`). Plans and receipts keep the seed's schema 1.0
 * field names; our additions are named in the comments.
 */

const riskSchema = z.enum(['low', 'medium', 'high', 'blocked']);
const modeSchema = z.enum(POLICY_MODES);

export const policySummarySchema = z.object({
  allowed: z.boolean(),
  risk: riskSchema,
  requires_approval: z.boolean(),
  reasons: z.array(z.string()),
  argv: z.array(z.string()),
  // ours:
  verdict: z.enum(['allow', 'deny', 'approval_required']),
  matched_rule: z.string(),
});

/** Ours: the OS confinement a command runs in (plan previews, receipts). */
export const confinementSchema = z.union([
  z.object({ sandbox: z.literal('off') }).strict(),
  z
    .object({
      sandbox: z.literal('bubblewrap'),
      writable_roots: z.array(z.string()),
      // 'on' (the host network, unfiltered) only in receipts made before the filtering proxy; still valid to read.
      network: z.enum(['off', 'filtered', 'on']),
      allowed_domains: z.array(z.string()).optional(),
      limits: z
        .object({
          memory_bytes: z.number().int(),
          processes: z.number().int(),
          file_size_bytes: z.number().int(),
          cpu_seconds: z.number().int(),
        })
        .strict(),
    })
    .strict(),
]);

export const planStatusSchema = z.enum([
  'planned',
  'blocked',
  'approved',
  'running',
  'paused',
  'succeeded',
  'failed',
  'cancelled',
  'timed_out',
]);

export const planSchema = z.object({
  schema_version: z.literal('1.0'),
  id: z.string(),
  session_id: z.string(),
  command: z.string(),
  cwd: z.string(),
  mode: modeSchema,
  status: planStatusSchema,
  created_at: z.string(),
  approved_at: z.string().nullable(),
  policy: policySummarySchema,
  limits: z.object({
    timeout_seconds: z.number(),
    max_output_bytes: z.number().int(),
    max_processes_per_session: z.number().int(),
  }),
  preview: z.object({
    executable: z.string().nullable(),
    files_potentially_touched: z.array(z.string()),
    network_requested: z.boolean(),
    executes_project_code: z.boolean(),
    max_duration_seconds: z.number(),
    max_output_bytes: z.number().int(),
    risk: riskSchema,
    // ours: what the command will be confined to.
    confinement: confinementSchema.optional(),
  }),
  // ours: present only when the plan needs approval.
  approval_id: z.string().optional(),
  approval_expires_at: z.string().optional(),
  // ours: what the model should do next with this plan.
  next_step: z.string(),
});

/** Seed receipts (schema 1.0) carry the seed's five policy fields; ours add `verdict` and `matched_rule`. */
export const receiptPolicySchema = policySummarySchema.partial({ verdict: true, matched_rule: true }).strict();

const sha256Hex = z.string().regex(/^[a-f0-9]{64}$/);
/*
 * UUIDs and timestamps are checked here and published as the seed publishes them: `format` only, no long pattern
 * (zod's own `uuid()`/`iso.datetime()` would add ~3 KB of patterns to every tools/list).
 */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339 date-time with `Z` or an offset: JS `toISOString()` and Python `isoformat()` (microseconds, `+00:00`). */
const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const uuid = z
  .string()
  .refine((value) => UUID_TEXT.test(value), { message: 'must be a UUID' })
  .meta({ format: 'uuid' });
const timestamp = z
  .string()
  .refine((value) => RFC3339_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'must be an RFC 3339 date-time with a zone',
  })
  .meta({ format: 'date-time' });

const byteCount = z.number().int().min(0);
const outputDigestSchema = z
  .object({ total_bytes: byteCount, kept_bytes: byteCount, sha256: sha256Hex, omitted_bytes: byteCount })
  .strict();

/**
 * Receipt schema 1.0: the one source of the receipt's shape. It is the tool output schema, the JSON Schema shipped
 * as `schemas/receipt-1.0.json` and served at `GET /schemas/receipt-1.0.json` (see src/application/receipts), and what
 * `term-mcp receipt validate` and `POST /receipts/validate` check. It accepts the seed's receipts: every field we add
 * is optional here, and no other field is allowed (the seed's `additionalProperties: false`).
 */
export const receiptSchema = z
  .object({
    schema_version: z.literal('1.0'),
    id: uuid,
    plan_id: uuid,
    session_id: uuid,
    // ours (signed like every other field):
    command_id: uuid.optional(),
    command: z.string(),
    command_sha256: sha256Hex,
    cwd: z.string(),
    mode: modeSchema,
    risk: riskSchema,
    approved: z.boolean(),
    policy: receiptPolicySchema,
    status: z.enum(['succeeded', 'failed', 'cancelled', 'timed_out']),
    started_at: timestamp,
    finished_at: timestamp,
    duration_ms: z.number().int().min(0),
    exit_code: z.number().int().nullable(),
    signal: z.number().int().min(1).nullable(),
    stdout: z.string(),
    stderr: z.string(),
    output_truncated: z.boolean(),
    // seed: set on a copy redacted for sharing (`term-mcp receipt redact`, `POST /receipts/redact`).
    sharing_redacted: z.boolean().optional(),
    // ours: the OS confinement the command ran in (signed when present; absent on seed receipts).
    confinement: confinementSchema.optional(),
    // ours: the run-on-open files and git directories the command changed (writable sandboxed modes; signed).
    run_on_open_changes: z
      .array(z.string())
      .max(50)
      .optional()
      .describe(
        'Workspace-relative paths of the files editors, agent hosts and git run on open (.git config, hooks, .vscode, .claude, .mcp.json...) that were added, removed or changed while the command ran; empty when none. Absent when the workspace was not writable or no sandbox compared them.',
      ),
    // ours (issue 24): the whole output of each stream; with omitted bytes, stdout/stderr are its head and tail.
    output: z
      .object({ stdout: outputDigestSchema, stderr: outputDigestSchema })
      .strict()
      .optional()
      .describe(
        'Per stream: bytes written, bytes kept (readable as the terminal-output resource), the SHA-256 of the kept bytes, and the bytes stdout/stderr leave out between their head and tail.',
      ),
    // ours (issue 24): a terminal session's size, what was typed at it (redacted) and the digest of all its output.
    terminal: z
      .object({
        cols: z.number().int(),
        rows: z.number().int(),
        input: z.string(),
        output_sha256: sha256Hex,
        output_bytes: z.number().int(),
      })
      .strict()
      .optional()
      .describe(
        'A terminal session: its final size, what was sent to it (redacted), and the SHA-256 and size of everything it printed (stdout holds the transcript up to the output cap).',
      ),
    signature: sha256Hex,
  })
  .strict();

/** Ours: `terminal_execute` answered before the command finished (`wait_seconds`). */
export const runningExecutionSchema = z.object({
  status: z.enum(['running', 'paused']),
  session_id: z.string(),
  plan_id: z.string(),
  command_id: z.string(),
  command: z.string(),
  started_at: z.string(),
  stdin_open: z.boolean(),
  next_step: z.string(),
});

/**
 * A choice of object shapes. MCP clients of the 2025-11-25 era require an object root (`type: "object"`), which a
 * plain union (`anyOf`) lacks, so the root type is stated explicitly.
 */
export function objectUnion<const Options extends readonly [z.ZodObject, z.ZodObject, ...z.ZodObject[]]>(
  options: Options,
): z.ZodUnion<Options> {
  return z.union(options).meta({ type: 'object' });
}

const outputChunkSchema = z.object({
  text: z.string(),
  offset: z.number().int(),
  next_offset: z.number().int(),
  captured_bytes: z.number().int(),
  truncated: z.boolean(),
  complete: z.boolean(),
});

export const readResultSchema = z.object({
  session_id: z.string(),
  command_id: z.string(),
  plan_id: z.string().nullable(),
  command: z.string(),
  status: z.enum(['running', 'paused', 'succeeded', 'failed', 'cancelled', 'timed_out']),
  exit_code: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  stdout: outputChunkSchema,
  stderr: outputChunkSchema,
  output_truncated: z.boolean(),
  /** The command has ended (the chunks may still leave bytes to read: see `complete`). */
  finished: z.boolean(),
  next_step: z.string(),
});
