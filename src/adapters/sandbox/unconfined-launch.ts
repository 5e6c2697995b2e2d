import type {
  CommandConfinement,
  ConfinementReadiness,
  ConfinedLaunch,
  ConfinementSummary,
  LaunchRequest,
} from '../../domain/execution/command-confinement.js';
import { commandArgv } from '../../domain/execution/trusted-launch.js';

/**
 * TERM_MCP_SANDBOX=off: commands run as plain child processes, as before the sandbox existed. Only the policy (and
 * the scrubbed environment and process groups) stand between a command and the server user's account.
 */
export class UnconfinedLaunch implements CommandConfinement {
  confine(request: LaunchRequest): ConfinedLaunch {
    const { launch } = request;
    const [file = '', ...args] = commandArgv(launch);
    return { file, args, cwd: request.cwd, environment: request.environment };
  }

  summary(): ConfinementSummary {
    return { sandbox: 'off' };
  }

  readiness(): ConfinementReadiness {
    return { ready: true };
  }
}
