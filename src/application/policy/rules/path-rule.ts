import type { Redirection, Word } from '../../shell/shell-ast.js';
import type { JudgeContext } from './judgement.js';

/** Options whose next word (or `=value`) is a path whatever it looks like (seed PATH_OPTIONS). */
const PATH_OPTIONS = new Set([
  '-C',
  '--cwd',
  '--directory',
  '--file',
  '--git-dir',
  '--output',
  '--path',
  '--work-tree',
]);

/** Redirections that open their target for writing. */
const OUTPUT_OPERATORS = new Set(['>', '>>', '>|', '<>', '&>', '&>>']);
const FILE_OPERATORS = new Set([...OUTPUT_OPERATORS, '<']);

/**
 * Linux NAME_MAX and PATH_MAX. A single name longer than NAME_MAX cannot exist (ENAMETOOLONG), so a candidate
 * without `/` that long resolves to a missing entry of the working directory: inside, and not worth a look-up.
 */
const NAME_MAX = 255;
export const PATH_MAX = 4096;
/**
 * A short-option word this long is refused: each letter may start a glued value (`-nfLINK`), so its candidates
 * grow with the square of its length. The default 1 000-character line cannot hold one.
 */
export const MAX_OPTION_CLUSTER = 1024;

/** The one device a redirection may name: discarding output cannot touch anything. */
const NULL_DEVICE = '/dev/null';

interface PathCandidate {
  /** What to print in the reason. */
  readonly token: string;
  readonly path: string;
  /** Checked even when it does not look like a path (operands, PATH_OPTIONS values, redirection targets). */
  readonly strict: boolean;
}

/** Seed `_looks_like_path`, plus a bare `..`. */
function looksLikePath(value: string): boolean {
  return (
    value.startsWith('/') ||
    value.startsWith('./') ||
    value.startsWith('../') ||
    value.startsWith('~') ||
    value.includes('/') ||
    value === '..'
  );
}

/** Files a command writes through redirections (never the null device). */
export function outputTargets(redirections: readonly Redirection[]): string[] {
  return redirections
    .filter((redirection) => OUTPUT_OPERATORS.has(redirection.operator) && redirection.target.value !== NULL_DEVICE)
    .map((redirection) => redirection.target.value);
}

/**
 * Every argument that may name a file: operands (all of them after `--`), values of `--opt=value`, values
 * glued to short options (`-f/etc/passwd`), and redirection targets. Returns the first one that resolves,
 * symlinks followed, outside the workspace.
 */
export function findPathEscape(
  args: readonly Word[],
  redirections: readonly Redirection[],
  context: JudgeContext,
): string | null {
  for (const candidate of [...argumentCandidates(args), ...redirectionCandidates(redirections)]) {
    if (escapes(candidate, context)) return candidate.token;
  }
  return null;
}

function argumentCandidates(args: readonly Word[]): PathCandidate[] {
  const candidates: PathCandidate[] = [];
  let endOfOptions = false;
  let nextIsPath = false;
  for (const word of args) {
    const value = word.value;
    if (endOfOptions || nextIsPath || !value.startsWith('-') || value === '-') {
      if (value !== '-' || endOfOptions) candidates.push({ token: value, path: value, strict: true });
      nextIsPath = false;
      continue;
    }
    if (value === '--') {
      endOfOptions = true;
      continue;
    }
    if (word.optionValueStart !== undefined) {
      // Read through the program's option table: exactly one value, wherever it was written.
      candidates.push({ token: value, path: value.slice(word.optionValueStart), strict: false });
      continue;
    }
    const equals = value.indexOf('=');
    if (equals > 0) {
      const option = value.slice(0, equals);
      const optionValue = value.slice(equals + 1);
      candidates.push({ token: value, path: optionValue, strict: PATH_OPTIONS.has(option) });
      continue;
    }
    if (PATH_OPTIONS.has(value)) {
      nextIsPath = true;
      continue;
    }
    if (!value.startsWith('--') && value.length > 2) {
      // A value glued to a short option may start after any letter of a cluster (`-nf../x`, `-nfLINK`).
      for (let start = 2; start < value.length; start += 1)
        candidates.push({ token: value, path: value.slice(start), strict: false });
      const slash = value.indexOf('/');
      if (slash > 0) candidates.push({ token: value, path: value.slice(slash), strict: true });
    }
  }
  return candidates;
}

function redirectionCandidates(redirections: readonly Redirection[]): PathCandidate[] {
  return redirections
    .filter((redirection) => FILE_OPERATORS.has(redirection.operator) && redirection.target.value !== NULL_DEVICE)
    .map((redirection) => ({ token: redirection.target.value, path: redirection.target.value, strict: true }));
}

/**
 * Words whose inspection would cost more than their length (reachable only with MAX_COMMAND_LENGTH raised): a
 * path-like word longer than PATH_MAX (the kernel cannot open it in one call; tools that walk it component by
 * component, like `mkdir -p`, could, so it is refused rather than skipped), and a short-option cluster longer than
 * MAX_OPTION_CLUSTER. Returns the denial's reason, or null.
 */
export function findOverlongWord(args: readonly Word[], redirections: readonly Redirection[]): string | null {
  for (const word of [...args, ...redirections.map((redirection) => redirection.target)]) {
    const value = word.value;
    if (value.length > PATH_MAX && value.includes('/'))
      return `a path-like word longer than ${PATH_MAX} characters is not judged`;
    const cluster =
      value.startsWith('-') && !value.startsWith('--') && !value.includes('=') && word.optionValueStart === undefined;
    if (value.length > MAX_OPTION_CLUSTER && cluster) {
      return `an option word longer than ${MAX_OPTION_CLUSTER} characters is not judged; pass its value as its own word`;
    }
  }
  return null;
}

function escapes(candidate: PathCandidate, context: JudgeContext): boolean {
  if (candidate.path === '' || candidate.path === '.' || candidate.path === './') return false;
  if (candidate.path.length > NAME_MAX && !candidate.path.includes('/')) return false;
  const facts = context.inspector.resolve(context.cwd, candidate.path);
  if (facts.inside) return false;
  return candidate.strict || looksLikePath(candidate.path) || facts.exists || facts.viaSymlink;
}

/**
 * Git reads its configuration and hooks from `.git/`, `$HOME/.gitconfig` and `$HOME/.config/git/` (HOME is the
 * command's cwd); writing there would make later read-only git commands run arbitrary programs
 * (core.fsmonitor, core.pager, hooks). Returns the first target that lands there.
 */
export function findProtectedTarget(targets: readonly string[], context: JudgeContext): string | null {
  const root = context.inspector.root;
  for (const target of targets) {
    const absolute = context.inspector.resolve(context.cwd, target).absolute;
    const relative =
      absolute === root ? '' : absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : absolute;
    if (isProtected(target) || isProtected(relative)) return target;
  }
  return null;
}

function isProtected(path: string): boolean {
  // Lower-cased and trimmed: case-insensitive file systems treat `.GIT ` like `.git`.
  const components = path.split('/').map((component) => component.trim().toLowerCase());
  return components.some(
    (component, index) =>
      component === '.git' ||
      component === '.gitconfig' ||
      (component === '.config' && components[index + 1] === 'git'),
  );
}
