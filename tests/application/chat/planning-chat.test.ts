import { ChatRequestSchema } from '../../../src/application/chat/chat-request';
import type { ChatSessions, CommandPlanner, PlannedCommand } from '../../../src/application/chat/command-planner';
import { PLANNING_SYSTEM_PROMPT, PlanningChat } from '../../../src/application/chat/planning-chat';
import { ChatNotConfigured, ChatProviderError } from '../../../src/domain/chat/chat-errors';
import type { ChatMessage, ChatModel } from '../../../src/domain/chat/chat-model';
import { InvalidArgument } from '../../../src/domain/errors';
import { SessionNotFound } from '../../../src/domain/execution/execution-errors';

/** A model that answers from a script and records every conversation it was sent. */
class ScriptedModel implements ChatModel {
  readonly calls: ChatMessage[][] = [];
  constructor(
    private readonly replies: Array<string | Error>,
    readonly available = true,
  ) {}
  async complete(messages: readonly ChatMessage[]): Promise<string> {
    this.calls.push([...messages]);
    const reply = this.replies[Math.min(this.calls.length - 1, this.replies.length - 1)] ?? '';
    if (reply instanceof Error) throw reply;
    return reply;
  }
}

class MemorySessions implements ChatSessions {
  readonly ids = new Set<string>();
  private next = 0;
  create(): string {
    this.next += 1;
    const id = `session-${String(this.next).padStart(4, '0')}`;
    this.ids.add(id);
    return id;
  }
  exists(sessionId: string): boolean {
    return this.ids.has(sessionId);
  }
}

/** Plans `rm` as denied, `ls` as allowed, and refuses `toolong` outright, recording what it planned. */
class RecordingPlanner implements CommandPlanner {
  readonly planned: Array<{ sessionId: string; command: string }> = [];
  async plan(sessionId: string, command: string): Promise<PlannedCommand> {
    this.planned.push({ sessionId, command });
    if (command === 'toolong') throw new InvalidArgument('command exceeds the 1000 character limit');
    const denied = command.startsWith('rm');
    return {
      command,
      planId: `plan-${this.planned.length}`,
      status: denied ? 'blocked' : 'planned',
      verdict: denied ? 'deny' : 'allow',
      risk: denied ? 'blocked' : 'low',
      requiresApproval: false,
      reasons: [denied ? 'broad deletion is blocked' : 'read-only command'],
    };
  }
}

const signal = new AbortController().signal;

function chatWith(model: ChatModel, options: { maxHistoryMessages?: number } = {}) {
  const sessions = new MemorySessions();
  const planner = new RecordingPlanner();
  const chat = new PlanningChat({ model, planner, sessions, ...options });
  return { chat, sessions, planner };
}

describe('PlanningChat', () => {
  it('without a model throws ChatNotConfigured and creates no session', async () => {
    const { chat, sessions } = chatWith(new ScriptedModel(['unused'], false));
    expect(chat.available).toBe(false);
    await expect(chat.send({ message: 'hi' }, signal)).rejects.toBeInstanceOf(ChatNotConfigured);
    expect(sessions.ids.size).toBe(0);
  });

  it('creates a session when none is given and sends the system prompt first', async () => {
    const model = new ScriptedModel(['Use ls.']);
    const { chat, sessions } = chatWith(model);
    const turn = await chat.send({ message: 'list files' }, signal);
    expect(turn).toEqual({ message: 'Use ls.', sessionId: 'session-0001', plans: [] });
    expect([...sessions.ids]).toEqual(['session-0001']);
    expect(model.calls[0]).toEqual([
      { role: 'system', content: PLANNING_SYSTEM_PROMPT },
      { role: 'user', content: 'list files' },
    ]);
  });

  it('plans the suggested commands (never runs them) and reports each decision', async () => {
    const model = new ScriptedModel(['```sh\nls -la\nrm -rf /\ntoolong\n```']);
    const { chat, planner } = chatWith(model);
    const turn = await chat.send({ message: 'clean up' }, signal);
    expect(planner.planned).toEqual([
      { sessionId: turn.sessionId, command: 'ls -la' },
      { sessionId: turn.sessionId, command: 'rm -rf /' },
      { sessionId: turn.sessionId, command: 'toolong' },
    ]);
    expect(turn.plans.map((plan) => [plan.command, plan.verdict, plan.status])).toEqual([
      ['ls -la', 'allow', 'planned'],
      ['rm -rf /', 'deny', 'blocked'],
      ['toolong', 'deny', 'blocked'],
    ]);
    expect(turn.plans[2]?.reasons).toEqual(['command exceeds the 1000 character limit']);
  });

  it('keeps one conversation per session and sends only the last messages', async () => {
    const model = new ScriptedModel(['r1', 'r2', 'other', 'r3']);
    const { chat } = chatWith(model, { maxHistoryMessages: 4 });
    const first = await chat.send({ message: 'm1' }, signal);
    await chat.send({ message: 'm2', session_id: first.sessionId }, signal);
    await chat.send({ message: 'elsewhere' }, signal);
    await chat.send({ message: 'm3', session_id: first.sessionId }, signal);
    expect(model.calls[2]?.map((m) => m.content)).toEqual([PLANNING_SYSTEM_PROMPT, 'elsewhere']);
    expect(model.calls[3]?.map((m) => m.content)).toEqual([PLANNING_SYSTEM_PROMPT, 'r1', 'm2', 'r2', 'm3']);
  });

  it('leaves a failed turn out of the history', async () => {
    const model = new ScriptedModel([new ChatProviderError('DeepSeek rejected the API key'), 'ok']);
    const { chat, sessions } = chatWith(model);
    const sessionId = sessions.create();
    await expect(chat.send({ message: 'first', session_id: sessionId }, signal)).rejects.toThrow(
      'DeepSeek rejected the API key',
    );
    await chat.send({ message: 'second', session_id: sessionId }, signal);
    expect(model.calls[1]?.map((m) => m.content)).toEqual([PLANNING_SYSTEM_PROMPT, 'second']);
  });

  it('refuses an unknown session id', async () => {
    const { chat } = chatWith(new ScriptedModel(['x']));
    await expect(chat.send({ message: 'hi', session_id: 'not-a-live-session' }, signal)).rejects.toBeInstanceOf(
      SessionNotFound,
    );
  });

  it('forgets the conversation of a closed session', async () => {
    const model = new ScriptedModel(['r1', 'r2']);
    const { chat } = chatWith(model);
    const first = await chat.send({ message: 'm1' }, signal);
    chat.forget(first.sessionId);
    await chat.send({ message: 'm2', session_id: first.sessionId }, signal);
    expect(model.calls[1]?.map((m) => m.content)).toEqual([PLANNING_SYSTEM_PROMPT, 'm2']);
  });
});

describe('ChatRequestSchema', () => {
  it.each([
    ['no message', {}, 'message is required'],
    ['a blank message', { message: '   ' }, 'message is required'],
    ['a 10,001-character message', { message: 'x'.repeat(10_001) }, 'message cannot exceed 10000 characters'],
    [
      'a malformed session_id',
      { message: 'hi', session_id: 'bad id!' },
      'session_id must be 8-128 letters, digits, or hyphens',
    ],
  ])('rejects %s', (_label, body, message) => {
    const parsed = ChatRequestSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it('trims the message', () => {
    expect(ChatRequestSchema.parse({ message: '  hi  ' })).toEqual({ message: 'hi' });
  });
});
