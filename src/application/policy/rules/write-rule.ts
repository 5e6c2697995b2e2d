import type { Word } from '../../shell/shell-ast.js';
import { hasOption, optionValues, splitArguments } from './arguments.js';
import { deny, judgeByMode, type JudgeContext, type Judgement } from './judgement.js';
import { MAX_LISTED_ENTRIES } from '../memoized-path-inspector.js';
import { findProtectedTarget } from './path-rule.js';

/** Seed broad-deletion targets, plus the filesystem root and hidden-entry wildcards. */
const BROAD_TARGETS = new Set(['.', './', '*', '**', '..', '../', '/', '.*', './*', '*/', '~', '~/']);

/**
 * `rm` aimed at the workspace itself: a broad token, a pure wildcard, or a path resolving to the working
 * directory, the workspace root or one of its ancestors. Checked before path confinement so the reason is clear.
 */
export function judgeBroadDeletion(executable: string, args: readonly Word[], context: JudgeContext): Judgement | null {
  if (executable !== 'rm') return null;
  const { operands } = splitArguments(args);
  if (
    operands.some((word) =>
      word.expansions.some((e) => e.feature === 'command_substitution' || e.feature === 'backtick_substitution'),
    )
  ) {
    return deny('dynamic_deletion_target', 'rm targets must be written out, not produced by a substitution');
  }
  const root = context.inspector.root;
  const cwd = context.inspector.resolve(context.cwd, '').absolute;
  const broad = operands.some((word) => {
    const value = word.value;
    if (BROAD_TARGETS.has(value)) return true;
    if (word.expansions.some((e) => e.feature === 'glob') && /^[*?./]+$/.test(value)) return true;
    if (value === '') return false;
    const absolute = context.inspector.resolve(context.cwd, value).absolute;
    return absolute === cwd || absolute === root || root.startsWith(absolute === '/' ? '/' : `${absolute}/`);
  });
  return broad ? deny('broad_deletion', 'broad deletion of the workspace is never allowed') : null;
}

/** cp, mkdir, mv, rm, touch, tee, ln -s and chmod; `outputs` are files written through redirections. */
export function judgeWrite(
  executable: string,
  args: readonly Word[],
  outputs: readonly string[],
  context: JudgeContext,
): Judgement {
  const { options } = splitArguments(args);
  let { operands } = splitArguments(args);
  if (executable === 'chmod') return judgeChmod(args, outputs, context);
  if (executable === 'ln') {
    const problem = judgeSymbolicLink(options, operands, context);
    if (problem) return problem;
  }
  if (executable === 'cp' && hasOption(options, { short: 's', long: ['--symbolic-link'] })) {
    return deny('symbolic_link', 'cp -s creates symbolic links; use ln -s');
  }
  if (executable === 'mkdir' && optionValues(args, ['-m', '--mode']).some(grantsSpecialBits)) {
    return denySpecialBits();
  }
  if (executable === 'cp' || executable === 'mv') {
    // -T merges into an existing directory: where the sources land would be misread.
    if (hasOption(options, { short: 'T', long: ['--no-target-directory'] })) {
      return deny('target_directory', `${executable} -T is not supported; name the destination as the last argument`);
    }
    // `-t DIR` (read through the option table, so its value is exact) is the destination written first.
    const targets = optionValues(args, ['-t', '--target-directory']);
    if (targets.length > 1) return deny('target_directory', `${executable} takes one -t directory`);
    const targetWord =
      targets.length === 1
        ? args.find((word) => hasOption([word.value], { short: 't', long: ['--target-directory'] }))
        : undefined;
    if (targetWord !== undefined) operands = [...operands, { ...targetWord, value: targets[0] as string }];
    const escape = findEscapeIntoDirectory(operands, context);
    if (escape !== null) return deny('path_escape', `path escapes the workspace: ${escape}`);
    if (executable === 'mv' || hasOption(options, LINK_PRESERVING_COPY)) {
      const carried = judgeCarriedLinks(operands, context);
      if (carried) return carried;
    }
  }
  return judgeFileWrite([...operands.map((word) => word.value), ...outputs], context);
}

const CHMOD_OPTIONS = new Set([
  '-R',
  '-c',
  '-f',
  '-v',
  '--recursive',
  '--changes',
  '--silent',
  '--quiet',
  '--verbose',
  '--preserve-root',
  '--no-preserve-root',
]);

/** chmod's mode may itself start with `-` (`chmod -x,u+s f`), so options are known by name, not by their dash. */
function judgeChmod(args: readonly Word[], outputs: readonly string[], context: JudgeContext): Judgement {
  const words = args.map((word) => word.value).filter((value) => value !== '--');
  const hasReference = words.some((value) => value.startsWith('--reference'));
  const rest = words.filter((value) => !CHMOD_OPTIONS.has(value) && !value.startsWith('--reference'));
  const [mode, ...files] = hasReference ? ['', ...rest] : rest;
  if (grantsSpecialBits(mode ?? '')) return denySpecialBits();
  return judgeFileWrite([...files, ...outputs], context);
}

function denySpecialBits(): Judgement {
  return deny('special_permission', 'setuid, setgid and sticky bits are never allowed');
}

export function denyProtectedWrite(target: string): Judgement {
  return deny('protected_path', `writes to git configuration and hooks are never allowed: ${target}`);
}

/** Any write (a write command, or a redirection/option of a read-only command) to the given files. */
export function judgeFileWrite(files: readonly string[], context: JudgeContext): Judgement {
  const protectedTarget = findProtectedTarget(files, context);
  if (protectedTarget !== null) return denyProtectedWrite(protectedTarget);
  return judgeByMode(
    context.settings.mode,
    {
      risk: 'high',
      rule: 'write_command',
      reason: 'command can modify workspace files',
      inspectReason: 'write commands are disabled in inspect mode',
    },
    { filesTouched: files },
  );
}

/** Only `ln -s TARGET... LINK`, and the link must point inside when read from where the link lives. */
function judgeSymbolicLink(
  options: readonly string[],
  operands: readonly Word[],
  context: JudgeContext,
): Judgement | null {
  if (!hasOption(options, { short: 's', long: ['--symbolic'] })) {
    return deny('hard_link', 'ln may only create symbolic links inside the workspace');
  }
  if (hasOption(options, { short: 't', long: ['--target-directory'] })) {
    return deny('symbolic_link', 'ln -t is not supported; name the link as the last argument');
  }
  // A relative target climbing with `..` points elsewhere once the link is moved or copied to another directory
  // (made inside `sub/`, then `mv` one level up, `../../x` leaves the workspace). Such targets are refused outright,
  // whatever they resolve to today. Absolute targets resolve the same from anywhere: judged below like the rest.
  const climbing = operands
    .slice(0, operands.length >= 2 ? -1 : undefined)
    .find((target) => !target.value.startsWith('/') && target.value.split('/').includes('..'));
  if (climbing)
    return deny(
      'symlink_target',
      `symbolic link targets may not climb with '..' (the link could be moved): ${climbing.value}`,
    );
  const last = operands[operands.length - 1];
  if (!last || operands.length < 2) return null;
  const link = context.inspector.resolve(context.cwd, last.value);
  const linkDirectory = link.isDirectory
    ? link.absolute
    : link.absolute.slice(0, link.absolute.lastIndexOf('/')) || '/';
  for (const target of operands.slice(0, -1)) {
    if (!context.inspector.resolve(linkDirectory, target.value).inside) {
      return deny('path_escape', `path escapes the workspace: ${target.value}`);
    }
  }
  return null;
}

/**
 * `cp SRC... DIR` and `mv SRC... DIR` write `DIR/<name of SRC>`: when that entry already exists as a symbolic link,
 * the copy goes where the link points. Judges each resulting file, not only the directory.
 */
function findEscapeIntoDirectory(operands: readonly Word[], context: JudgeContext): string | null {
  const last = operands[operands.length - 1];
  if (!last || operands.length < 2) return null;
  const directory = context.inspector.resolve(context.cwd, last.value);
  if (!directory.isDirectory) return null;
  for (const source of operands.slice(0, -1)) {
    const name = source.value.replace(/\/+$/, '').split('/').pop() ?? '';
    if (name === '' || name === '.' || name === '..') continue;
    const result = context.inspector.resolve(directory.absolute, name);
    if (!result.inside) return `${last.value.replace(/\/+$/, '')}/${name}`;
  }
  return null;
}

/**
 * cp options that copy symbolic links as links instead of the files they point to (GNU cp: -R and -a imply -P for
 * links met inside the tree, and for the operands themselves). -L and -H (follow) are refused elsewhere.
 */
const LINK_PRESERVING_COPY = { short: 'rRadP', long: ['--recursive', '--archive', '--no-dereference'] };

/**
 * `mv SRC... DEST` and a link-preserving `cp SRC... DEST` carry every symbolic link at or under each source to a
 * new place, where a relative target resolves from somewhere else (issue 12 §3: a link made inside `sub/` pointing
 * at `../x` points outside once carried to the root). Each carried link is judged where it lands: `DEST/<name of
 * SRC>/...` when DEST is a directory, `DEST/...` otherwise; it must resolve inside the workspace from there.
 * Carrying it again later is judged again. A tree too large to read within the evaluation's budget is refused.
 */
function judgeCarriedLinks(operands: readonly Word[], context: JudgeContext): Judgement | null {
  const last = operands[operands.length - 1];
  if (!last || operands.length < 2) return null;
  const list = context.inspector.listLinks;
  const destination = context.inspector.resolve(context.cwd, last.value);
  for (const source of operands.slice(0, -1)) {
    if (source.value === '') continue; // names nothing: cp and mv fail on it
    if (!list) return deny('symbolic_link', `cannot look for symbolic links to carry in ${source.value}`);
    const name = source.value.replace(/\/+$/, '').split('/').pop() ?? '';
    // `SRC/` follows a link named SRC (its target's tree is carried); `SRC/.` and `SRC/..` carry a directory's
    // contents straight into DEST (`cp -r sub/. d` lands `sub/l` at `d/l`, not `d/sub/l`).
    const followed = source.value.endsWith('/') || name === '.' || name === '..' || name === '';
    const top = followed
      ? context.inspector.resolve(context.cwd, source.value).absolute
      : entryPath(source.value, context);
    const listing = list.call(context.inspector, top, MAX_LISTED_ENTRIES);
    if (listing.truncated) {
      return deny(
        'tree_too_large',
        `${source.value} holds more than ${MAX_LISTED_ENTRIES} entries to check for symbolic links`,
      );
    }
    const contentsOnly = name === '.' || name === '..' || name === '';
    const landingTop =
      destination.isDirectory && !contentsOnly ? `${destination.absolute}/${name}` : destination.absolute;
    for (const link of listing.links) {
      const landing = landingTop + link.path.slice(top.length);
      const landingDirectory = landing.slice(0, landing.lastIndexOf('/')) || '/';
      if (!context.inspector.resolve(landingDirectory, link.target).inside) {
        const shown = `${source.value.replace(/\/+$/, '')}${link.path.slice(top.length)}`;
        return deny(
          'symlink_target',
          `${shown} is a symbolic link to ${link.target}, which would point outside the workspace once carried to ${last.value}`,
        );
      }
    }
  }
  return null;
}

/** The absolute path of the entry an operand names, its directory resolved and itself not followed. */
function entryPath(operand: string, context: JudgeContext): string {
  const trimmed = operand.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  const name = trimmed.slice(slash + 1);
  if (trimmed === '' || name === '' || name === '.' || name === '..')
    return context.inspector.resolve(context.cwd, operand).absolute;
  const directory = context.inspector.resolve(context.cwd, slash === -1 ? '' : trimmed.slice(0, slash) || '/').absolute;
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

/** Symbolic modes adding s/t in any clause, or octal modes with a non-zero special-bits digit. */
function grantsSpecialBits(mode: string): boolean {
  if (/^[0-7]+$/.test(mode)) return mode.length >= 4 && mode[mode.length - 4] !== '0';
  return mode.split(',').some((clause) => /[+=][^+=-]*[st]/.test(clause.replace(/^[ugoa]*/, '')));
}
