import type { ExecutionSession } from '../../domain/execution/execution-session.js';
import type { ExecutionEvent } from '../../domain/execution/execution-types.js';
import type { TerminalEvents } from '../../domain/terminal/terminal-events.js';

/** The subscribers of one terminal session, and how to stop listening to its execution session's command events. */
interface Channel {
  readonly listeners: Set<(event: ExecutionEvent) => void>;
  detach: () => void;
}

/**
 * The `TerminalEvents` port: one ordered stream per terminal session of what its aggregate records (policy decision,
 * plan, approved) and of what its command does (started, output, paused, resumed, finished, session closed, from the
 * execution session). The execution session is listened to only while the terminal session has subscribers, so a
 * command's output costs nothing extra when nobody watches.
 */
export class TerminalEventHub implements TerminalEvents {
  private readonly channels = new Map<string, Channel>();

  /** `liveExecution`: the execution session of a live terminal session, without marking it as used. */
  constructor(private readonly liveExecution: (sessionId: string) => ExecutionSession | undefined) {}

  subscribe(sessionId: string, listener: (event: ExecutionEvent) => void): (() => void) | undefined {
    const execution = this.liveExecution(sessionId);
    if (!execution) return undefined;
    let channel = this.channels.get(sessionId);
    if (!channel) {
      const opened: Channel = { listeners: new Set(), detach: () => undefined };
      this.channels.set(sessionId, opened);
      opened.detach = execution.subscribe((event) => this.deliver(sessionId, event));
      channel = opened;
    }
    const subscribed = channel;
    subscribed.listeners.add(listener);
    return () => {
      subscribed.listeners.delete(listener);
      if (subscribed.listeners.size === 0) this.closeChannel(sessionId, subscribed);
    };
  }

  publish(event: ExecutionEvent): void {
    this.deliver(event.sessionId, event);
  }

  private deliver(sessionId: string, event: ExecutionEvent): void {
    const channel = this.channels.get(sessionId);
    if (!channel) return;
    for (const listener of [...channel.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a dropped stream, say) must not stop the command, the caller or the other subscribers.
      }
    }
    if (event.type === 'session_closed') this.closeChannel(sessionId, channel);
  }

  private closeChannel(sessionId: string, channel: Channel): void {
    channel.detach();
    if (this.channels.get(sessionId) === channel) this.channels.delete(sessionId);
  }
}
