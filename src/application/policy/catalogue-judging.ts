import { deny } from './rules/judgement.js';
import type { JudgingMode } from './judging-mode.js';
import { judgeSimpleCommand } from './simple-command-judge.js';

const BACKGROUND = Object.freeze({
  judgement: deny('background_job', 'background jobs (&) are not allowed'),
  placement: 'instead' as const,
});
const NEGATION = Object.freeze({
  judgement: deny('shell_negation', 'pipeline negation (!) is not supported'),
  placement: 'instead' as const,
});
const PIPE_STDERR = Object.freeze({
  judgement: deny('unsupported_redirection', '|& is not supported by /bin/sh'),
  placement: 'instead' as const,
});

/**
 * inspect, confirm and trusted: every simple command is read by the command catalogue and its rules
 * (simple-command-judge.ts); shapes the launch does not support (`&`, `!`, `|&`, subshells, groups, control
 * structures) are refused; inline code is refused because it cannot be read; a `cd` builtin moves where the rest
 * of its list is judged.
 */
export const CATALOGUE_JUDGING: JudgingMode = Object.freeze({
  parseOptions: Object.freeze({}),
  followsCd: true,
  pipelineShape(item, index) {
    if (item.separator === '&') return BACKGROUND;
    if (item.pipeline.negated && index === 0) return NEGATION;
    return item.pipeline.operators[index] === '|&' ? PIPE_STDERR : null;
  },
  judgeSimple: judgeSimpleCommand,
  judgeStructure(command) {
    switch (command.type) {
      case 'subshell':
        return deny('subshell', 'subshells ( ) are not supported');
      case 'group':
        return deny('command_group', 'command groups { } are not supported');
      case 'for':
      case 'while':
      case 'until':
      case 'if':
        // Only parsed in sandboxed mode; refused like the reserved word it starts with.
        return deny('shell_keyword', `shell control structures are not supported: ${command.type}`);
    }
  },
  walksStructureSubstitutions: false,
  walksWrappedSubstitutions: false,
  judgeInlineCode: (language) => deny('inline_code', `inline ${language} code cannot be inspected`),
} satisfies JudgingMode);
