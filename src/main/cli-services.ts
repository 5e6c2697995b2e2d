import type { CliRequest, CliServices, Explanation } from '../adapters/cli/cli-services.js';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import type { PathInspector } from '../domain/policy/path-inspector.js';
import type { PolicyEngine } from '../domain/policy/policy-engine.js';
import type { ReceiptSigner } from '../domain/terminal/receipt-signer.js';
import { TERM_MCP_VERSION } from './server-info.js';

/**
 * What the CLI adapter drives, composed here: each service reads the configuration (environment, then the command's
 * flags) and resolves what it needs from a container of the server's own modules (typed tokens), never built by
 * hand. Every module is imported on first use, so `term-mcp version` loads no server and `term-mcp stdio` no HTTP.
 */
export const CLI_SERVICES: CliServices = Object.freeze({
  version: TERM_MCP_VERSION,

  async serveStdio(request: CliRequest): Promise<number> {
    const [{ HTTP_LISTEN_SETTINGS, loadConfig }, { withReceiptKey }, { runStdio }] = await Promise.all([
      import('./config.js'),
      import('./receipt-key.js'),
      import('./run-stdio.js'),
    ]);
    // HOST and PORT are not checked: STDIO never binds (a PORT set for another server must not stop it).
    const config = loadConfig(request.env, request.flags, request.cwd, HTTP_LISTEN_SETTINGS);
    return runStdio(withReceiptKey(config, (line) => request.stderr.write(line)));
  },

  async serveHttp(request: CliRequest): Promise<number> {
    const [{ loadConfig }, { withReceiptKey }, { runHttp }] = await Promise.all([
      import('./config.js'),
      import('./receipt-key.js'),
      import('./run-http.js'),
    ]);
    return runHttp(
      withReceiptKey(loadConfig(request.env, request.flags, request.cwd), (line) => request.stderr.write(line)),
    );
  },

  async explain(request: CliRequest, command: string, cwdFlag: string | undefined): Promise<Explanation> {
    const [{ default: path }, { loadConfig }, { configuredContainer }, { policyModule }, { TYPES }] = await Promise.all(
      [
        import('node:path'),
        import('./config.js'),
        import('./container.js'),
        import('./modules/policy-module.js'),
        import('./types.js'),
      ],
    );
    const container = configuredContainer(loadConfig(request.env, request.flags, request.cwd));
    container.load(policyModule);
    const { root } = container.get<PathInspector>(TYPES.PathInspector);
    // A relative --cwd is taken from the workspace root, as the terminal tools take theirs.
    const cwd = cwdFlag === undefined ? root : path.resolve(root, cwdFlag);
    const decision = container.get<PolicyEngine>(TYPES.PolicyEngine).evaluate({ command, cwd });
    return { decision, mode: container.get<PolicySettings>(TYPES.PolicySettings).mode, cwd };
  },

  async receiptSigner(request: CliRequest): Promise<ReceiptSigner | undefined> {
    const [{ loadConfig }, { readStateKey }, { configuredContainer }, { receiptsModule }, { TYPES }] =
      await Promise.all([
        import('./config.js'),
        import('./receipt-key.js'),
        import('./container.js'),
        import('./modules/receipts-module.js'),
        import('./types.js'),
      ]);
    const config = loadConfig(request.env, request.flags, request.cwd);
    // The persistent key of the server's state directory, when no key is configured (read only: never created here).
    const receiptKey = config.receiptKey ?? (config.stateDir === undefined ? undefined : readStateKey(config.stateDir));
    if (receiptKey === undefined) return undefined;
    const container = configuredContainer(Object.freeze({ ...config, receiptKey }));
    container.load(receiptsModule);
    return container.get<ReceiptSigner>(TYPES.ReceiptSigner);
  },

  async doctorChecks(request: CliRequest, nodeVersion: string) {
    const { doctorChecks } = await import('./doctor-checks.js');
    return doctorChecks(request, nodeVersion);
  },
});
