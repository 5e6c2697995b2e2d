import { SecretRedactor } from '../../../src/application/terminal/secret-redactor';
import { toolCallFields } from '../../../src/application/tools/tool-call-log';

const SECRET = 'server-token-that-must-never-be-logged';
const redactor = new SecretRedactor([SECRET]);

describe('toolCallFields (the per-call log line)', () => {
  test('names tool, verdict, rule, status, exit and duration of an executed receipt, with the command redacted', () => {
    const fields = toolCallFields(
      {
        tool: 'terminal_execute',
        arguments: { command: `curl -H ${SECRET} password=hunter22`, stdin: 'typed secret' },
        structured: {
          status: 'succeeded',
          exit_code: 0,
          signal: null,
          command: `curl -H ${SECRET} password=hunter22`,
          policy: { verdict: 'allow', matched_rule: 'read_only' },
          stdout: 'output text',
        },
        isError: false,
        durationMs: 12.6,
      },
      redactor,
    );
    expect(fields).toEqual({
      tool: 'terminal_execute',
      verdict: 'allow',
      rule: 'read_only',
      status: 'succeeded',
      exit: 0,
      is_error: false,
      duration_ms: 13,
      command: 'curl -H [REDACTED] password=[REDACTED]',
    });
  });

  test('a refusal carries its error code; a thrown call its code; no output or stdin is ever included', () => {
    const refused = toolCallFields(
      {
        tool: 'terminal_execute',
        arguments: { command: 'rm -rf /' },
        structured: { code: 'policy_denied', message: 'm', next_step: null, details: {} },
        isError: true,
        durationMs: 1,
      },
      redactor,
    );
    expect(refused).toEqual({
      tool: 'terminal_execute',
      error: 'policy_denied',
      is_error: true,
      duration_ms: 1,
      command: 'rm -rf /',
    });
    const thrown = toolCallFields(
      {
        tool: 'no_such_tool',
        arguments: { stdin: 'x' },
        structured: undefined,
        isError: true,
        durationMs: 0,
        thrownCode: 'unknown_tool',
      },
      redactor,
    );
    expect(thrown).toEqual({ tool: 'no_such_tool', error: 'unknown_tool', is_error: true, duration_ms: 0 });
  });

  test('cuts a very long command', () => {
    const fields = toolCallFields(
      {
        tool: 'terminal_plan',
        arguments: { command: `echo ${'a'.repeat(2000)}` },
        structured: {},
        isError: false,
        durationMs: 0,
      },
      redactor,
    );
    expect(String(fields.command)).toHaveLength(501);
  });
});
