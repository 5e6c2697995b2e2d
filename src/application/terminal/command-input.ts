import type { CommandLocator, CommandSelector } from './command-locator.js';

export interface InputRequest extends CommandSelector {
  readonly text: string;
  readonly closeStdin: boolean;
}

/** `terminal_input`: feeds a command's stdin (opened with `open_stdin`). */
export class CommandInput {
  constructor(private readonly locator: CommandLocator) {}

  /** Writes to the command's stdin, then closes it when asked; returns the bytes written. */
  async write(request: InputRequest): Promise<{ commandId: string; bytesWritten: number }> {
    const { command } = this.locator.find(request);
    if (request.text.length > 0) await command.writeInput(request.text);
    if (request.closeStdin) command.closeInput();
    return { commandId: command.id, bytesWritten: new TextEncoder().encode(request.text).length };
  }
}
