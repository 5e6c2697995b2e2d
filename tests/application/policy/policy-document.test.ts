import { DEFAULT_POLICY_SETTINGS, parsePolicyDocument } from '../../../src/application/policy/policy-document';
import { NON_INTERACTIVE_ENVIRONMENT } from '../../../src/domain/execution/non-interactive-environment';
import { PolicyFileInvalid } from '../../../src/domain/policy/policy-errors';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { ConfigurationError } from '../../../src/domain/errors';
import { InstalledToolsInspector, PolicyWorkspace } from './policy-workspace';

function failure(text: string, format: 'json' | 'yaml'): PolicyFileInvalid {
  try {
    parsePolicyDocument(text, format);
  } catch (error) {
    if (error instanceof PolicyFileInvalid) return error;
    throw error;
  }
  throw new Error('expected the policy file to be rejected');
}

describe('policy document', () => {
  it('defaults to inspect mode, no network and the built-in commands', () => {
    expect(DEFAULT_POLICY_SETTINGS).toEqual({
      mode: 'inspect',
      allowNetwork: false,
      extraReadOnlyCommands: [],
      deniedCommands: [],
      approvalCommands: [],
      nonInteractive: {
        PAGER: 'cat',
        GIT_PAGER: 'cat',
        GIT_EDITOR: 'true',
        EDITOR: 'true',
        GIT_TERMINAL_PROMPT: '0',
        DEBIAN_FRONTEND: 'noninteractive',
      },
    });
    expect(Object.isFrozen(DEFAULT_POLICY_SETTINGS)).toBe(true);
  });

  it('parses a JSON policy file', () => {
    const settings = parsePolicyDocument(
      JSON.stringify({
        mode: 'confirm',
        allow_network: true,
        commands: { read_only: ['jq'], require_approval: ['tree'], deny: ['find'] },
      }),
      'json',
    );
    expect(settings).toEqual({
      mode: 'confirm',
      allowNetwork: true,
      extraReadOnlyCommands: ['jq'],
      approvalCommands: ['tree'],
      deniedCommands: ['find'],
      nonInteractive: NON_INTERACTIVE_ENVIRONMENT,
    });
  });

  it('parses a YAML policy file', () => {
    const settings = parsePolicyDocument(
      'mode: trusted\ncommands:\n  read_only:\n    - jq\n    - yq\n  deny: [make]\n',
      'yaml',
    );
    expect(settings).toEqual({
      mode: 'trusted',
      allowNetwork: false,
      extraReadOnlyCommands: ['jq', 'yq'],
      approvalCommands: [],
      deniedCommands: ['make'],
      nonInteractive: NON_INTERACTIVE_ENVIRONMENT,
    });
  });

  it('replaces the non-interactive values it names and keeps the others', () => {
    const settings = parsePolicyDocument('environment:\n  PAGER: less -FRX\n  GIT_TERMINAL_PROMPT: "1"\n', 'yaml');
    expect(settings.nonInteractive).toEqual({
      ...NON_INTERACTIVE_ENVIRONMENT,
      PAGER: 'less -FRX',
      GIT_TERMINAL_PROMPT: '1',
    });
  });

  it('keeps the base settings for everything the file does not mention', () => {
    const base = { ...DEFAULT_POLICY_SETTINGS, mode: 'confirm' as const, allowNetwork: true, deniedCommands: ['rm'] };
    expect(parsePolicyDocument('{}', 'json', base)).toEqual(base);
    expect(parsePolicyDocument('commands: { deny: [mv] }', 'yaml', base).deniedCommands).toEqual(['rm', 'mv']);
  });

  it.each([
    ['{"mode":"yolo"}', 'json', 'mode', /^policy file field "mode" is invalid: /],
    ['allow_network: "yes"', 'yaml', 'allow_network', /expected boolean/],
    ['{"modes":"inspect"}', 'json', 'modes', /^policy file field "modes" is invalid: unknown key$/],
    ['commands:\n  write: [rm]', 'yaml', 'commands.write', /unknown key/],
    ['commands:\n  read_only: [jq, 3]', 'yaml', 'commands.read_only[1]', /expected string/],
    ['- mode', 'yaml', '(root)', /expected object/],
    ['environment:\n  LD_PRELOAD: /x.so', 'yaml', 'environment.LD_PRELOAD', /unknown key/],
    ['{"environment":{"PAGER":"a\\u0000b"}}', 'json', 'environment.PAGER', /must not contain a NUL byte/],
    ['environment:\n  EDITOR: 3', 'yaml', 'environment.EDITOR', /expected string/],
  ] as const)('rejects %j naming the field %s', (text, format, field, message) => {
    const error = failure(text, format);
    expect(error.details).toEqual({ field });
    expect(error.message).toMatch(message);
    expect(error.code).toBe('policy_file_invalid');
  });

  it('reports syntax errors of each format', () => {
    expect(failure('{"mode": ', 'json').message).toMatch(/^policy file is not valid JSON: /);
    expect(failure('mode: [unclosed', 'yaml').message).toMatch(/^policy file is not valid YAML: /);
  });

  it.each([
    [
      'read_only: [bash]',
      'commands.read_only[0]',
      'bash is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be read-only',
    ],
    [
      'read_only: [jq, Python3]',
      'commands.read_only[1]',
      'Python3 is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be read-only',
    ],
    [
      'read_only: [curl]',
      'commands.read_only[0]',
      'curl is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be read-only',
    ],
    [
      'read_only: [sudo]',
      'commands.read_only[0]',
      'sudo is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be read-only',
    ],
    ['read_only: [rm]', 'commands.read_only[0]', 'rm has its own built-in rule and cannot be made read-only'],
    ['read_only: [npm]', 'commands.read_only[0]', 'npm has its own built-in rule and cannot be made read-only'],
    ['read_only: [git]', 'commands.read_only[0]', 'git has its own built-in rule and cannot be made read-only'],
    [
      'require_approval: [sh]',
      'commands.require_approval[0]',
      'sh is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be approved',
    ],
    [
      'require_approval: [xargs]',
      'commands.require_approval[0]',
      'xargs is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be approved',
    ],
    [
      'read_only: [/usr/bin/jq]',
      'commands.read_only[0]',
      "\"/usr/bin/jq\" is not a plain command name (letters, digits, '.', '_', '+', '-'; no paths)",
    ],
    [
      'deny: ["a b"]',
      'commands.deny[0]',
      "\"a b\" is not a plain command name (letters, digits, '.', '_', '+', '-'; no paths)",
    ],
    ['read_only: [jq]\n  deny: [jq]', 'commands.read_only[0]', 'jq cannot be both read-only and denied'],
  ])('keeps the hard floor: rejects commands: { %s }', (commands, field, reason) => {
    const error = failure(`commands:\n  ${commands}\n`, 'yaml');
    expect(error.message).toBe(`policy file field "${field}" is invalid: ${reason}`);
    expect(error.details).toEqual({ field });
  });

  it('accepts tightening the built-in commands', () => {
    const settings = parsePolicyDocument(
      'commands:\n  read_only: [cat]\n  require_approval: [rm, git, ls]\n  deny: [bash, find]\n',
      'yaml',
    );
    expect(settings.approvalCommands).toEqual(['rm', 'git', 'ls']);
    expect(settings.deniedCommands).toEqual(['bash', 'find']);
  });
});

describe('policy file examples: checked when the engine is built', () => {
  let workspace: PolicyWorkspace;

  beforeEach(() => {
    workspace = new PolicyWorkspace();
  });

  afterEach(() => {
    workspace.cleanup();
  });

  const build = (text: string) =>
    new DefaultPolicyEngine(new InstalledToolsInspector(workspace.root), parsePolicyDocument(text, 'yaml'));

  it('builds when every example gets its verdict', () => {
    const text =
      "commands:\n  deny: [wc]\n  require_approval: [tree]\nexamples:\n  allow: ['ls -la', 'cat README.md']\n  require_approval: ['tree src']\n  deny: ['wc -l README.md', 'rm -rf /']\n";
    expect(parsePolicyDocument(text, 'yaml').examples).toEqual({
      allow: ['ls -la', 'cat README.md'],
      require_approval: ['tree src'],
      deny: ['wc -l README.md', 'rm -rf /'],
    });
    expect(() => build(text)).not.toThrow();
  });

  it.each([
    [
      "commands:\n  deny: [wc]\nexamples:\n  allow: [ls, 'wc README.md']\n",
      /^policy file example examples\.allow\[1\] "wc README\.md" should be allow in inspect mode but is deny \(rule policy_denied_command: wc is denied by the policy file\)$/,
    ],
    [
      "examples:\n  deny: ['cat README.md']\n",
      /examples\.deny\[0\] "cat README\.md" should be deny in inspect mode but is allow \(rule read_only_command/,
    ],
    [
      "mode: confirm\nexamples:\n  require_approval: ['touch x', 'ls']\n",
      /examples\.require_approval\[1\] "ls" should be approval_required in confirm mode but is allow/,
    ],
  ])('refuses to build when an example is judged otherwise: %j', (text, message) => {
    expect(() => build(text)).toThrow(ConfigurationError);
    expect(() => build(text)).toThrow(message);
  });

  it('rejects unknown example keys naming the field', () => {
    expect(failure('examples:\n  approve: [ls]\n', 'yaml').details).toEqual({ field: 'examples.approve' });
    expect(failure('examples:\n  allow: [1]\n', 'yaml').details).toEqual({ field: 'examples.allow[0]' });
  });
});
