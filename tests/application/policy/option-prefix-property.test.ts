import { OPTION_TABLES } from '../../../src/application/policy/options/program-options';
import type { OptionTable } from '../../../src/application/policy/options/option-table';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';
import { PolicyWorkspace } from './policy-workspace';

/**
 * Generated from the option tables: for every catalogued program and every long option whose presence changes the
 * verdict, every prefix the program would take for it (getopt_long: any unique prefix) gets the verdict of the full
 * name, in every mode; an ambiguous prefix, a prefix a program without abbreviations would reject, and an unknown
 * name are refused. Uniqueness is worked out here from the names alone, not by the reader under test.
 */
const MODES: readonly PolicyMode[] = ['inspect', 'confirm', 'trusted'];
/** How many long options change each program's verdict (filled by the generated tests, checked by the last one). */
const verdictChangingOptions = new Map<string, number>();

function written(table: OptionTable, name: string, spelled: string): string {
  const argument = table.long[name];
  return `${table.program} --${spelled}${argument === 'required' ? '=README.md' : ''} README.md`;
}

/** Names a prefix could stand for: itself when it is a name, else every name it begins. */
function candidates(table: OptionTable, prefix: string): string[] {
  if (table.long[prefix] !== undefined) return [prefix];
  return Object.keys(table.long).filter((name) => name.startsWith(prefix));
}

function synonyms(table: OptionTable, names: readonly string[]): boolean {
  return table.synonyms?.some((group) => names.every((name) => group.includes(name))) ?? false;
}

describe('long option prefixes are judged as the option they stand for', () => {
  let workspace: PolicyWorkspace;
  beforeAll(() => {
    workspace = new PolicyWorkspace();
  });
  afterAll(() => {
    workspace.cleanup();
  });

  const judge = (line: string, mode: PolicyMode) => {
    const decision = workspace.evaluate(line, { mode });
    return `${decision.verdict} (${decision.matchedRule})`;
  };

  it.each([...OPTION_TABLES.values()].map((table) => [table.program, table] as const))('%s', (program, table) => {
    const baseline = MODES.map((mode) => judge(`${program} README.md`, mode));
    let verdictChanging = 0;
    let prefixesJudged = 0;
    const mismatches: string[] = [];
    for (const name of Object.keys(table.long)) {
      const full = MODES.map((mode) => judge(written(table, name, name), mode));
      const changes = full.some((verdict, index) => verdict !== baseline[index]);
      if (changes) verdictChanging += 1;
      // Options that change nothing are covered at their shortest prefix; the ones that change the verdict at all.
      const lengths = Array.from({ length: name.length - 1 }, (_, index) => index + 1);
      for (const length of changes
        ? lengths
        : lengths.filter((l) => candidates(table, name.slice(0, l)).length === 1).slice(0, 1)) {
        const prefix = name.slice(0, length);
        const meant = candidates(table, prefix);
        const expected =
          table.abbreviation === 'exact' && meant[0] !== prefix
            ? MODES.map(() => 'deny (unknown_option)')
            : meant.length === 1 || synonyms(table, meant)
              ? MODES.map((mode) => judge(written(table, meant[0] as string, meant[0] as string), mode))
              : MODES.map(() => 'deny (ambiguous_option)');
        const line = written(table, meant[0] as string, prefix);
        const got = MODES.map((mode) => judge(line, mode));
        prefixesJudged += 1;
        if (got.join() !== expected.join())
          mismatches.push(`${line}: ${got.join(' / ')} (expected ${expected.join(' / ')})`);
      }
    }
    const unknown = MODES.map((mode) => judge(`${program} --zz-no-such-option README.md`, mode));
    expect({ mismatches, unknown }).toEqual({ mismatches: [], unknown: MODES.map(() => 'deny (unknown_option)') });
    expect(prefixesJudged > 0 || Object.keys(table.long).length === 0).toBe(true);
    verdictChangingOptions.set(program, verdictChanging);
  });

  it('finds the options of the issue among the verdict-changing ones, abbreviated as in the sweep', () => {
    // Writes inside the workspace are what trusted mode allows; the sweep's writes are checked in inspect and confirm.
    const writes = ['sort --out=x README.md', 'sort --o x README.md'];
    const lines = [
      'sort -S 1 --compress-prog=python3 README.md',
      'wc --files0=-',
      'du --files0=-',
      'sort --files0=-',
      'grep --dereference-rec x src',
      'ls --deref src',
      'du --deref src',
      'cp --deref README.md src/',
      'file --comp',
      'file --files-f=list',
      'md5sum --ch sums',
      'date --f=/etc/hostname',
      'date --ref=/etc/hostname',
    ];
    const allowed = MODES.flatMap((mode) =>
      [...lines, ...(mode === 'trusted' ? [] : writes)]
        .filter((line) => workspace.evaluate(line, { mode }).verdict === 'allow')
        .map((line) => `${mode}: ${line}`),
    );
    expect(allowed).toEqual([]);
    // The generated cases above did meet verdict-changing options (they ran first, in file order).
    expect(
      ['sort', 'du', 'wc', 'grep', 'ls', 'cp', 'file', 'md5sum'].filter(
        (program) => (verdictChangingOptions.get(program) ?? 0) === 0,
      ),
    ).toEqual([]);
  });
});
