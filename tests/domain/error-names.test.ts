import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One definition per error: a typed error's class is named for its code (`plan_not_found` is `PlanNotFound`), so a
 * reader who meets either finds the other. Read from the sources, since a class's code is an instance field.
 */
const DOMAIN = path.resolve(__dirname, '../../src/domain');

function errorFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return errorFiles(full);
    return /errors?\.ts$/.test(entry.name) ? [full] : [];
  });
}

function pascalCase(code: string): string {
  return code
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** Each `class X extends DomainError` with the `code = '...'` that follows it. */
function typedErrors(): { file: string; className: string; code: string }[] {
  return errorFiles(DOMAIN).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/class (\w+) extends DomainError\b[^]*?\bcode = '([a-z_]+)'/g)].map((match) => ({
      file: path.relative(DOMAIN, file),
      className: match[1] ?? '',
      code: match[2] ?? '',
    }));
  });
}

describe('typed error names', () => {
  test('the domain defines typed errors (the scan reads the real files)', () => {
    expect(typedErrors().length).toBeGreaterThanOrEqual(40);
  });

  test("every typed error's class is its code in PascalCase", () => {
    const disagreeing = typedErrors().filter(({ className, code }) => className !== pascalCase(code));
    expect(disagreeing).toEqual([]);
  });
});
