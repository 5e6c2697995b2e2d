import type { CliContext } from '../cli-context.js';
import { requestOf } from './command-io.js';

/**
 * `term-mcp doctor [--json] [--workspace DIR] [--mode MODE]`: one line per check, or one JSON document. Exit 0 when
 * every required check holds, 1 otherwise. The checks themselves (a real sandbox probe among them) are the
 * composition root's (`CliServices.doctorChecks`).
 */
export async function run(context: CliContext, nodeVersion: string = process.version): Promise<number> {
  const checks = await context.services.doctorChecks(requestOf(context), nodeVersion);
  const ok = Object.values(checks).every((check) => check.ok || !check.required);
  if (context.args.switches.has('json')) {
    context.stdout.write(`${JSON.stringify({ version: context.services.version, checks, ok })}\n`);
  } else {
    for (const [name, check] of Object.entries(checks)) {
      const mark = check.ok ? 'ok  ' : check.required ? 'FAIL' : 'warn';
      context.stdout.write(`${mark} ${name}: ${check.detail}\n`);
    }
    context.stdout.write(
      ok ? 'term-mcp doctor: every required check holds\n' : 'term-mcp doctor: a required check failed\n',
    );
  }
  return ok ? 0 : 1;
}
