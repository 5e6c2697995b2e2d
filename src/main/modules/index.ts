import type { ContainerModule } from 'inversify';
import { coreModule } from './core-module.js';
import { outputModule } from './output-module.js';
import { policyModule } from './policy-module.js';
import { protocolModule } from './protocol-module.js';
import { receiptsModule } from './receipts-module.js';
import { sandboxModule } from './sandbox-module.js';
import { terminalModule } from './terminal-module.js';
import { workspaceModule } from './workspace-module.js';

/**
 * Every module of the server (STDIO, HTTP, the library), in no particular order: bindings are lazy, so a module may
 * name a service another one binds. The composition root, the terminal test fixture and the in-process benchmark load
 * exactly these and rebind only what they replace. The HTTP-only modules (web, receipt routes) are loaded by the HTTP
 * app (`http-app.ts`), so STDIO never imports Express.
 */
export const SERVER_MODULES: readonly ContainerModule[] = Object.freeze([
  coreModule,
  protocolModule,
  workspaceModule,
  policyModule,
  sandboxModule,
  receiptsModule,
  terminalModule,
  outputModule,
]);
