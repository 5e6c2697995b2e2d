import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OPTION_TABLES } from '../../../src/application/policy/options/program-options';
import { shortOptions } from '../../../src/application/policy/options/option-table';
import {
  documentedOptions,
  helpText,
  installed,
  manualLongOptions,
  probeLongOption,
  versionLine,
} from './program-help';

/**
 * The option tables against the installed programs: every option a program documents in `--help` or its manual is
 * in its table, so a new release cannot add an option the policy has not judged (an unknown option is refused, so a
 * missing one shows as a refusal, never as an unjudged run). GNU getopt programs are also asked about each long
 * option of the table: it must exist, and need a value exactly when the table says `required`.
 */
const tables = [...OPTION_TABLES.values()];
/** `--help` lines that are not options: cut's range syntax `-M`, diff's option families. */
const HELP_PROSE: Readonly<Record<string, readonly string[]>> = {
  cut: ['M'],
  diff: ['GTYPE-group-format', 'LTYPE-line-format'],
};
/** Manual mentions that are not options of the program itself. */
const MANUAL_PROSE: Readonly<Record<string, readonly string[]>> = {
  // diff's manual names the option families; the table lists each member (old-group-format ...).
  diff: ['GTYPE-group-format', 'LTYPE-line-format'],
  // ripgrep's manual cites find's -print0 as --print0 in the text about --null.
  rg: ['print0'],
};

describe('option tables match the installed programs', () => {
  let empty: string;
  beforeAll(() => {
    empty = fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-option-probe-'));
  });
  afterAll(() => {
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it.each(tables.map((table) => [table.program, table] as const))(
    '%s: the table holds every documented option',
    (program, table) => {
      if (installed(program) === null) {
        // tree is not installed on the machine the tables were checked on; docs/policy.md says so.
        expect(program).toBe('tree');
        return;
      }
      const documented = documentedOptions(helpText(program));
      const shorts = shortOptions(table);
      const prose = HELP_PROSE[program] ?? [];
      const missingLong = [...documented.long].filter(
        (name) => table.long[name] === undefined && !prose.includes(name),
      );
      const missingShort = [...documented.short].filter((letter) => !shorts.has(letter) && !prose.includes(letter));
      const manual = manualLongOptions(program);
      const missingFromManual =
        manual === null
          ? []
          : [...manual].filter(
              (name) => table.long[name] === undefined && !(MANUAL_PROSE[program] ?? []).includes(name),
            );
      expect({ program, version: versionLine(program), missingLong, missingShort, missingFromManual }).toEqual({
        program,
        version: versionLine(program),
        missingLong: [],
        missingShort: [],
        missingFromManual: [],
      });
      expect(documented.long.size + documented.short.size).toBeGreaterThan(0);
    },
  );

  const getoptTables = tables.filter((table) => table.abbreviation === 'unique_prefix');
  it.each(getoptTables.map((table) => [table.program, table] as const))(
    '%s: each long option exists and needs a value exactly when the table says so',
    (program, table) => {
      if (installed(program) === null) return;
      const wrong = Object.entries(table.long)
        .filter(([name]) => name !== 'help' && name !== 'version')
        .map(([name, argument]) => ({ name, table: argument, program: probeLongOption(program, name, empty) }))
        .filter((row) => row.program === 'unknown' || (row.program === 'required') !== (row.table === 'required'));
      expect(wrong).toEqual([]);
    },
  );
});
