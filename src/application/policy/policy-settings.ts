import {
  NON_INTERACTIVE_ENVIRONMENT,
  type NonInteractiveEnvironment,
} from '../../domain/execution/non-interactive-environment.js';
import type { PolicyMode } from '../../domain/policy/policy-types.js';

/** Everything that tunes the default policy. Built from APPROVAL_MODE / ALLOW_NETWORK and an optional policy file. */
export interface PolicySettings {
  readonly mode: PolicyMode;
  /** Allows dependency operations that reach the network (`npm install`, `cargo fetch`...). */
  readonly allowNetwork: boolean;
  /** Extra commands judged like `cat`: allowed at low risk once their paths stay inside the workspace. */
  readonly extraReadOnlyCommands: readonly string[];
  /** Commands denied whatever the other rules say. */
  readonly deniedCommands: readonly string[];
  /** Commands that always need an explicit approval, in every mode (an unknown command listed here becomes allowed with approval). */
  readonly approvalCommands: readonly string[];
  /**
   * Command lines with the verdict the policy must give them (policy file `examples`), checked when the engine is
   * built, so a rule that does not do what its author meant stops start-up instead of judging wrongly.
   */
  readonly examples?: PolicyExamples;
  /**
   * Absolute paths of the server's own files (the policy file, the audit log): sandboxed mode denies any command line
   * that names them, on top of the sandbox hiding them.
   */
  readonly serverFiles?: readonly string[];
  /**
   * What commands without a terminal get so that nothing waits for a person (PAGER=cat, GIT_EDITOR=true, ...):
   * the defaults, with the values the policy file's `environment` gives.
   */
  readonly nonInteractive?: NonInteractiveEnvironment;
}

export interface PolicyExamples {
  readonly allow: readonly string[];
  readonly require_approval: readonly string[];
  readonly deny: readonly string[];
}

/** Seed defaults: inspect mode, no network, only the built-in command surface. */
export const DEFAULT_POLICY_SETTINGS: PolicySettings = Object.freeze({
  mode: 'inspect',
  allowNetwork: false,
  extraReadOnlyCommands: Object.freeze([]),
  deniedCommands: Object.freeze([]),
  approvalCommands: Object.freeze([]),
  nonInteractive: NON_INTERACTIVE_ENVIRONMENT,
});
