import type { CliFlag } from './cli-args.js';
import type { CliCommandModule } from './cli-context.js';

/**
 * One row of the command table. To add a command, add a row: its usage line, its flags, and a lazy import of the
 * module that runs it. The dispatcher refuses unknown flags and extra positionals, and answers `--help`, before the
 * module is even loaded; the module checks what its positionals mean (throw `CliUsageError(message, name)`).
 */
export interface CliCommand {
  /** One line for the command list of `term-mcp --help`. */
  readonly summary: string;
  /** What follows the name in the usage line, e.g. `validate|show|redact <file> [--structure-only]`. */
  readonly synopsis: string;
  readonly flags: readonly CliFlag[];
  /** Lines `term-mcp <command> --help` prints after the summary (subcommands, exit codes). */
  readonly details?: readonly string[];
  /** Most positional arguments accepted (default 0). */
  readonly maxPositionals?: number;
  load(): Promise<CliCommandModule>;
}

/** The flags both servers take; each overrides an environment variable (docs/configuration.md). */
const SERVER_FLAGS: readonly CliFlag[] = [
  {
    name: 'workspace',
    value: 'DIR',
    description: 'WORKSPACE_ROOT: the folder commands run in (default: the current directory)',
  },
  {
    name: 'mode',
    value: 'MODE',
    description: 'APPROVAL_MODE: inspect (default, read-only) | confirm | trusted | sandboxed',
  },
  { name: 'policy', value: 'FILE', description: 'TERM_MCP_POLICY: a JSON or YAML policy file' },
  { name: 'approval', value: 'CHANNEL', description: 'TERM_MCP_APPROVAL: client (default) | operator' },
];

const HTTP_FLAGS: readonly CliFlag[] = [
  ...SERVER_FLAGS,
  { name: 'host', value: 'HOST', description: 'HOST: the address to bind (default 127.0.0.1)' },
  { name: 'port', value: 'PORT', description: 'PORT: the port to bind (default 8000)' },
];

/** Every `term-mcp` command, in the order `--help` lists them. `stdio` runs when no command is given. */
export const CLI_COMMANDS: Readonly<Record<string, CliCommand>> = Object.freeze({
  stdio: {
    summary: 'MCP over STDIO (newline-delimited JSON-RPC); the default',
    synopsis: '[flags]',
    flags: SERVER_FLAGS,
    load: () => import('./commands/stdio-command.js'),
  },
  http: {
    summary: 'MCP over Streamable HTTP at POST /mcp (plus the web UI)',
    synopsis: '[flags]',
    flags: HTTP_FLAGS,
    load: () => import('./commands/http-command.js'),
  },
  explain: {
    summary: 'judge a command line with the policy and print the verdict, rule, reasons and launch; runs nothing',
    synopsis: '"<command>" [flags]',
    flags: [
      {
        name: 'workspace',
        value: 'DIR',
        description: 'WORKSPACE_ROOT: the workspace to judge against (default: the current directory)',
      },
      { name: 'mode', value: 'MODE', description: 'APPROVAL_MODE: inspect (default) | confirm | trusted | sandboxed' },
      { name: 'policy', value: 'FILE', description: 'TERM_MCP_POLICY: a JSON or YAML policy file' },
      {
        name: 'cwd',
        value: 'DIR',
        description: 'the working directory of the command (relative to the workspace; default its root)',
      },
      { name: 'json', description: 'print the decision as JSON' },
    ],
    maxPositionals: 1,
    load: () => import('./commands/explain-command.js'),
  },
  doctor: {
    summary: 'check this machine can run term-mcp: Node, the workspace, and a real sandbox probe; exit 1 if not',
    synopsis: '[--workspace DIR] [--mode MODE] [--json]',
    flags: [
      {
        name: 'workspace',
        value: 'DIR',
        description: 'WORKSPACE_ROOT: the workspace to check (default: the current directory)',
      },
      {
        name: 'mode',
        value: 'MODE',
        description: 'APPROVAL_MODE: the mode whose sandbox profile is probed (default inspect)',
      },
      { name: 'json', description: 'print {"version", "checks", "ok"}' },
    ],
    load: () => import('./commands/doctor-command.js'),
  },
  token: {
    summary: 'print a fresh random bearer token',
    synopsis: '',
    flags: [],
    load: () => import('./commands/token-command.js'),
  },
  version: {
    summary: 'print the version (also --version, -v)',
    synopsis: '',
    flags: [],
    load: () => import('./commands/version-command.js'),
  },
  receipt: {
    summary: 'validate, show or redact a signed receipt file (- reads standard input)',
    synopsis: 'validate|show|redact <file> [--structure-only] [--json]',
    flags: [
      { name: 'structure-only', description: 'validate: check the schema only, not the signature' },
      { name: 'json', description: 'validate, show: print JSON' },
    ],
    details: [
      'Subcommands:',
      '  validate <file>  check the receipt against schema 1.0 and its signature',
      '                   (TERM_MCP_RECEIPT_KEY); exit 0 valid, 1 invalid, 2 unreadable',
      '  show <file>      summarise it: status, command, cwd, risk, times, exit, seal',
      '  redact <file>    print the copy redacted for sharing, re-signed',
      '<file> is a path, or - for standard input.',
    ],
    maxPositionals: 2,
    load: () => import('./commands/receipt-command.js'),
  },
  demo: {
    summary: 'list the demo scenarios the web UI offers (no model needed)',
    synopsis: '[--json]',
    flags: [{ name: 'json', description: 'print {"scenarios": [...]}' }],
    load: () => import('./commands/demo-command.js'),
  },
  help: {
    summary: "print this help, or one command's (also --help, -h, and <command> --help)",
    synopsis: '[command]',
    flags: [],
    maxPositionals: 1,
    load: () => import('./commands/help-command.js'),
  },
});

/** The command run when the first argument is a flag or there is none. */
export const DEFAULT_COMMAND = 'stdio';
