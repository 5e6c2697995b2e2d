/**
 * What a command without a terminal gets so that nothing it starts waits for a person (issue 24): pagers print
 * through `cat`, editors exit at once (`git commit` without `-m` then aborts on its empty message instead of waiting
 * in `vi`), git never asks for credentials, and Debian tools take their defaults. The policy file may replace any of
 * these values (`environment:`), and only these: it cannot add other variables to a command's environment.
 */
export const NON_INTERACTIVE_ENVIRONMENT = Object.freeze({
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_EDITOR: 'true',
  EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
  DEBIAN_FRONTEND: 'noninteractive',
});

export type NonInteractiveVariable = keyof typeof NON_INTERACTIVE_ENVIRONMENT;

export const NON_INTERACTIVE_VARIABLES = Object.freeze(
  Object.keys(NON_INTERACTIVE_ENVIRONMENT),
) as readonly NonInteractiveVariable[];

export type NonInteractiveEnvironment = Readonly<Record<NonInteractiveVariable, string>>;
