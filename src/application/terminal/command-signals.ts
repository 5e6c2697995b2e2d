import type { CommandLocator, CommandSelector } from './command-locator.js';

/** Seed pause, resume and cancel: signals to a command's process group; its plan's status follows (it reads the command's). */
export class CommandSignals {
  constructor(private readonly locator: CommandLocator) {}

  /** Seed `{paused}`: false when no command is running or it is already paused. */
  pause(selector: CommandSelector): boolean {
    const target = this.locator.findLive(selector);
    return target ? target.terminal.pause(target.command) : false;
  }

  resume(selector: CommandSelector): boolean {
    const target = this.locator.findLive(selector);
    return target ? target.terminal.resume(target.command) : false;
  }

  /** Seed `{cancelled}`: terminates the process group and resolves once the command's receipt is recorded. */
  async cancel(selector: CommandSelector): Promise<boolean> {
    const target = this.locator.findLive(selector);
    if (!target?.command.cancel()) return false;
    await (target.terminal.pendingReceipt(target.command.id) ?? target.command.finished());
    return true;
  }
}
