import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { livePidsRunning, pollUntil } from '../support/live-processes';
import { connectV1Client, type V1Connection, type V1Transport } from '../support/sdk-v1-client';

/**
 * The everyday flows through `@modelcontextprotocol/sdk` 1.32.2, which validates every structured result (refusals
 * included) against the tool's declared outputSchema and throws -32602 when one does not match. Every refusal must
 * arrive as a tool result with isError true, the server's structured refusal, and its text: callTool never throws.
 */
describe.each<V1Transport>(['stdio', 'http'])('@modelcontextprotocol/sdk 1.32.2 Client over %s', (transport) => {
  let connection: V1Connection;
  let client: Client;

  beforeAll(async () => {
    connection = await connectV1Client(transport);
    client = connection.client;
    writeFileSync(path.join(connection.workspaceRoot, 'notes.txt'), 'first line\n');
  });

  afterAll(async () => {
    await connection.close();
  });

  async function call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; data: Record<string, unknown>; text: string }> {
    const result = await client.callTool({ name, arguments: args });
    const [first] = result.content as Array<{ type: string; text?: string }>;
    return {
      isError: result.isError === true,
      data: result.structuredContent as Record<string, unknown>,
      text: first?.text ?? '',
    };
  }

  /** A refusal: isError, the structured {code, message, next_step, details}, and the text naming all three. */
  async function refusal(name: string, args: Record<string, unknown>, code: string): Promise<Record<string, unknown>> {
    const { isError, data, text } = await call(name, args);
    expect(isError).toBe(true);
    expect(data).toEqual({
      code,
      message: expect.any(String),
      next_step: expect.any(String),
      details: expect.any(Object),
    });
    expect(text).toBe(`Error ${code}: ${String(data.message)}\nNext step: ${String(data.next_step)}`);
    return data;
  }

  test('lists the terminal tools, each with an object output schema (which admits refusals)', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(14);
    for (const tool of tools) expect(tool.outputSchema).toEqual({ type: 'object' });
  });

  test('a successful execute returns its signed receipt', async () => {
    const { isError, data, text } = await call('terminal_execute', { command: 'cat notes.txt' });
    expect(isError).toBe(false);
    expect(data).toMatchObject({
      status: 'succeeded',
      exit_code: 0,
      stdout: 'first line\n',
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.parse(text)).toEqual(data);
  });

  test('a failed command (exit 1) returns its receipt with isError', async () => {
    const { isError, data } = await call('terminal_execute', { command: 'grep -q absent notes.txt' });
    expect(isError).toBe(true);
    expect(data).toMatchObject({ status: 'failed', exit_code: 1 });
  });

  test('a denied command is a policy_denied refusal', async () => {
    const data = await refusal('terminal_execute', { command: 'cat /etc/passwd' }, 'policy_denied');
    expect(data.message).toMatch(/denied/i);
  });

  test('a denied command planned is a blocked plan', async () => {
    const { isError, data } = await call('terminal_plan', { command: 'cat /etc/passwd' });
    expect(isError).toBe(false);
    expect(data).toMatchObject({ status: 'blocked', policy: { verdict: 'deny' } });
  });

  test('a command that needs approval is an approval_required refusal naming the plan', async () => {
    const data = await refusal('terminal_execute', { command: 'sleep 1' }, 'approval_required');
    expect(data.details).toMatchObject({ planId: expect.any(String), approvalId: expect.any(String) });
  });

  test('an unknown session is a session_not_found refusal', async () => {
    await refusal('terminal_receipt', { session_id: 'no-such-session' }, 'session_not_found');
  });

  test('invalid arguments are an invalid_arguments refusal naming the field', async () => {
    const data = await refusal('terminal_plan', { command: 'ls', bogus: true }, 'invalid_arguments');
    expect(data.message).toContain('bogus');
  });

  test('an unknown tool is a JSON-RPC error, the one failure that is not a tool result', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  test('cancelling a waiting terminal_execute (AbortSignal) kills the command, sends no late answer, keeps the receipt', async () => {
    const marker = ['/usr/bin/sleep', String(7000 + (transport === 'http' ? 1000 : 0) + (process.pid % 997))];
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const plan = (await call('terminal_plan', { command: `sleep ${marker[1]}` })).data;
    await call('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    const abort = new AbortController();

    const execution = client.callTool(
      { name: 'terminal_execute', arguments: { session_id: plan.session_id, plan_id: plan.id } },
      undefined,
      { signal: abort.signal, timeout: 120_000 },
    );
    const settled = execution.then(
      () => 'answered',
      () => 'rejected',
    );
    await pollUntil(() => livePidsRunning(marker).length === 1, 'the command to start');
    abort.abort('the user changed their mind');

    expect(await settled).toBe('rejected');
    await pollUntil(() => livePidsRunning(marker).length === 0, 'the command to be killed');
    let receipt: Record<string, unknown> = {};
    await pollUntil(async () => {
      receipt = (await call('terminal_receipt', { session_id: plan.session_id, plan_id: plan.id })).data;
      return receipt.status === 'cancelled';
    }, 'the cancelled receipt');
    expect(receipt).toMatchObject({ status: 'cancelled', plan_id: plan.id });
    // A late answer to the cancelled request would surface here as "Received a response for an unknown message ID".
    await client.listTools();
    expect(errors.map((error) => error.message)).toEqual([]);
  }, 90_000);

  test('resources: list and read a workspace file', async () => {
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri: 'workspace:///notes.txt' }));
    const read = await client.readResource({ uri: 'workspace:///notes.txt' });
    expect(read.contents).toEqual([expect.objectContaining({ uri: 'workspace:///notes.txt', text: 'first line\n' })]);
  });

  test('the safe_terminal_task prompt', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('safe_terminal_task');
    const prompt = await client.getPrompt({
      name: 'safe_terminal_task',
      arguments: { task: 'count the lines of notes.txt' },
    });
    expect(JSON.stringify(prompt.messages)).toContain('count the lines of notes.txt');
  });
});
