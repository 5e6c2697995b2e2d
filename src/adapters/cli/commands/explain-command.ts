import { summarizePolicy } from '../../../application/terminal/policy-summary.js';
import type { PolicyDecision, PolicyVerdict } from '../../../domain/policy/policy-types.js';
import { CliUsageError } from '../cli-args.js';
import type { CliContext } from '../cli-context.js';
import { requestOf } from './command-io.js';

/**
 * `term-mcp explain "<command>" [--mode M] [--cwd D] [--workspace DIR] [--policy FILE] [--json]`: judges a command
 * line with the policy the server would use (same configuration, same policy file) and prints the verdict, the
 * deciding rule, the reasons, every part and the launch. It runs nothing. The exit code is the verdict, so a script
 * can gate on it: 0 allow, 3 needs approval, 4 deny (2 stays a usage or configuration error, 1 a crash).
 */
export const EXPLAIN_EXIT_CODES: Readonly<Record<PolicyVerdict, number>> = Object.freeze({
  allow: 0,
  approval_required: 3,
  deny: 4,
});

export async function run(context: CliContext): Promise<number> {
  const command = context.args.positionals[0];
  if (command === undefined || command === '')
    throw new CliUsageError('give the command line to explain, quoted as one argument', context.name);
  const { cwd: cwdFlag, ...flags } = context.args.values;
  const { decision, mode, cwd } = await context.services.explain({ ...requestOf(context), flags }, command, cwdFlag);
  if (context.args.switches.has('json')) {
    context.stdout.write(`${JSON.stringify(explainJson(command, cwd, mode, decision), null, 2)}\n`);
  } else {
    context.stdout.write(describe(decision, mode, cwd));
  }
  return EXPLAIN_EXIT_CODES[decision.verdict];
}

/** The decision with the field names plans and receipts use (`policy`, `preview`, snake_case), plus parts and launch. */
function explainJson(command: string, cwd: string, mode: string, decision: PolicyDecision) {
  const { preview } = decision;
  return {
    command,
    cwd,
    mode,
    policy: summarizePolicy(decision),
    parts: decision.parts.map((part) => ({
      text: part.text,
      verdict: part.verdict,
      rule: part.rule,
      reason: part.reason,
    })),
    preview: {
      executable: preview.executable,
      files_potentially_touched: [...preview.filesPotentiallyTouched],
      network_requested: preview.networkRequested,
      executes_project_code: preview.executesProjectCode,
      risk: decision.risk,
    },
    launch: decision.launch ?? null,
  };
}

function describe(decision: PolicyDecision, mode: string, cwd: string): string {
  const lines = [
    `verdict: ${decision.verdict} (mode ${mode}, cwd ${cwd})`,
    `risk:    ${decision.risk}`,
    `rule:    ${decision.matchedRule}`,
    'reasons:',
    ...decision.reasons.map((reason) => `  - ${reason}`),
    'parts:',
    ...decision.parts.map(
      (part) =>
        `  - ${part.verdict} [${part.rule}] ${JSON.stringify(part.text)}${part.reason ? `: ${part.reason}` : ''}`,
    ),
  ];
  const { preview } = decision;
  const facts = [
    preview.filesPotentiallyTouched.length > 0 ? `touches ${preview.filesPotentiallyTouched.join(', ')}` : null,
    preview.networkRequested ? 'requests the network' : null,
    preview.executesProjectCode ? 'executes project code' : null,
  ].filter((fact) => fact !== null);
  if (facts.length > 0) lines.push(`facts:   ${facts.join('; ')}`);
  const launch = decision.launch;
  if (launch === undefined) lines.push('launch:  none (denied: nothing would run)');
  else if (launch.kind === 'argv') lines.push(`launch:  argv ${JSON.stringify(launch.argv)} (no shell)`);
  else lines.push(`launch:  /bin/sh -c ${JSON.stringify(launch.script)}`);
  lines.push('(explain runs nothing)');
  return `${lines.join('\n')}\n`;
}
