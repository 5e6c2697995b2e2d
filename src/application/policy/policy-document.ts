import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  NON_INTERACTIVE_ENVIRONMENT,
  NON_INTERACTIVE_VARIABLES,
  type NonInteractiveVariable,
} from '../../domain/execution/non-interactive-environment.js';
import { PolicyFileInvalid } from '../../domain/policy/policy-errors.js';
import { POLICY_MODES } from '../../domain/policy/policy-types.js';
import { findFloorViolation, type CommandListName } from './policy-floor.js';
import { DEFAULT_POLICY_SETTINGS, type PolicySettings } from './policy-settings.js';

export { DEFAULT_POLICY_SETTINGS } from './policy-settings.js';

/**
 * A policy file (TERM_MCP_POLICY), JSON or YAML. Every key is optional; unknown keys are errors.
 *
 *   mode: confirm                 # inspect | confirm | trusted | sandboxed
 *   allow_network: false
 *   commands:
 *     read_only: [jq]             # judged like cat: low risk, paths confined to the workspace
 *     require_approval: [tree]    # always need an explicit approval, in every mode
 *     deny: [find]                # denied whatever else applies
 *   examples:                     # checked when the engine is built: a mismatch stops start-up
 *     allow: ['jq . package.json']
 *     require_approval: ['tree src']
 *     deny: ['find .']
 *   environment:                  # the non-interactive settings commands get (only these six names)
 *     PAGER: cat                  # PAGER, GIT_PAGER, GIT_EDITOR, EDITOR, GIT_TERMINAL_PROMPT, DEBIAN_FRONTEND
 *
 * The file can only tighten the hard floor (see command-catalog.ts): shells, interpreters, wrappers, privilege,
 * network and system tools can be neither read-only nor approvable, and write, development and git commands
 * keep their built-in rules.
 */
/** A variable's value reaches `spawn`, which refuses a NUL byte: refused here, at start-up, instead. */
const environmentValue = z
  .string()
  .max(4096)
  .refine((value) => !value.includes('\0'), { message: 'must not contain a NUL byte' });
const EnvironmentSchema = z.strictObject(
  Object.fromEntries(NON_INTERACTIVE_VARIABLES.map((name) => [name, environmentValue.optional()])) as Record<
    NonInteractiveVariable,
    z.ZodOptional<typeof environmentValue>
  >,
);

const PolicyDocumentSchema = z.strictObject({
  mode: z.enum(POLICY_MODES).optional(),
  allow_network: z.boolean().optional(),
  commands: z
    .strictObject({
      read_only: z.array(z.string()).optional(),
      require_approval: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
    })
    .optional(),
  examples: z
    .strictObject({
      allow: z.array(z.string()).optional(),
      require_approval: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
    })
    .optional(),
  environment: EnvironmentSchema.optional(),
});

/** Where each settings list comes from in the file, for error messages. */
const FILE_FIELD: Record<CommandListName, string> = {
  extraReadOnlyCommands: 'commands.read_only',
  approvalCommands: 'commands.require_approval',
  deniedCommands: 'commands.deny',
};

/**
 * Parses and validates a policy file. Settings it does not mention keep their value from `base`.
 * Throws `PolicyFileInvalid` naming the offending field.
 */
export function parsePolicyDocument(
  text: string,
  format: 'json' | 'yaml',
  base: PolicySettings = DEFAULT_POLICY_SETTINGS,
): PolicySettings {
  const raw = parseSyntax(text, format);
  const result = PolicyDocumentSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0] as z.core.$ZodIssue;
    const field = describeIssuePath(issue);
    throw new PolicyFileInvalid(`policy file field "${field}" is invalid: ${describeIssue(issue)}`, field);
  }
  const document = result.data;
  const settings: PolicySettings = Object.freeze({
    mode: document.mode ?? base.mode,
    allowNetwork: document.allow_network ?? base.allowNetwork,
    extraReadOnlyCommands: Object.freeze([...base.extraReadOnlyCommands, ...(document.commands?.read_only ?? [])]),
    approvalCommands: Object.freeze([...base.approvalCommands, ...(document.commands?.require_approval ?? [])]),
    deniedCommands: Object.freeze([...base.deniedCommands, ...(document.commands?.deny ?? [])]),
    nonInteractive: Object.freeze({
      ...(base.nonInteractive ?? NON_INTERACTIVE_ENVIRONMENT),
      ...definedOnly(document.environment ?? {}),
    }),
    ...(document.examples === undefined
      ? base.examples === undefined
        ? {}
        : { examples: base.examples }
      : {
          examples: Object.freeze({
            allow: Object.freeze([...(base.examples?.allow ?? []), ...(document.examples.allow ?? [])]),
            require_approval: Object.freeze([
              ...(base.examples?.require_approval ?? []),
              ...(document.examples.require_approval ?? []),
            ]),
            deny: Object.freeze([...(base.examples?.deny ?? []), ...(document.examples.deny ?? [])]),
          }),
        }),
  });
  const violation = findFloorViolation(settings);
  if (violation) {
    const fileIndex = violation.index - base[violation.list].length;
    const field = fileIndex >= 0 ? `${FILE_FIELD[violation.list]}[${fileIndex}]` : FILE_FIELD[violation.list];
    throw new PolicyFileInvalid(`policy file field "${field}" is invalid: ${violation.message}`, field);
  }
  return settings;
}

function definedOnly(
  values: Partial<Record<NonInteractiveVariable, string | undefined>>,
): Partial<Record<NonInteractiveVariable, string>> {
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function parseSyntax(text: string, format: 'json' | 'yaml'): unknown {
  try {
    return format === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new PolicyFileInvalid(`policy file is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${detail}`, null);
  }
}

function describeIssuePath(issue: z.core.$ZodIssue): string {
  const path = issue.path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`),
    '',
  );
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return path === '' ? key : `${path}.${key}`;
  }
  return path === '' ? '(root)' : path;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return 'unknown key';
  return issue.message;
}
