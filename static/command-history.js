// Command history of the command box, as in a shell: ↑ walks back through the commands planned in this tab, ↓ walks
// forward and finally returns the draft that was being typed. Pure (no DOM), so tests/static can check it.

export class CommandHistory {
  constructor(limit = 100) {
    this.limit = limit;
    this.commands = [];
    this.position = 0;
    this.draft = '';
  }

  /** Remembers a planned command (a repeat of the last one is kept once) and goes back to the draft. */
  record(command) {
    if (command.trim() !== '' && this.commands[this.commands.length - 1] !== command) this.commands.push(command);
    if (this.commands.length > this.limit) this.commands.splice(0, this.commands.length - this.limit);
    this.position = this.commands.length;
    this.draft = '';
  }

  /** The text for ↑ (older) from what the box holds now, or undefined at the oldest. */
  older(current) {
    if (this.position === 0) return undefined;
    if (this.position === this.commands.length) this.draft = current;
    this.position -= 1;
    return this.commands[this.position];
  }

  /** The text for ↓ (newer), the draft after the newest, or undefined when already at the draft. */
  newer() {
    if (this.position >= this.commands.length) return undefined;
    this.position += 1;
    return this.position === this.commands.length ? this.draft : this.commands[this.position];
  }
}
