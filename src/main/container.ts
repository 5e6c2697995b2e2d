import 'reflect-metadata';
import { rmSync } from 'node:fs';
import { Container } from 'inversify';
import type { OutputArchive } from '../application/terminal/output-archive.js';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import type { TerminalSessionStore } from '../application/terminal/terminal-session-store.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import type { Config } from './config.js';
import { SERVER_MODULES } from './modules/index.js';
import { TYPES, type OutputSpool } from './types.js';

/** Lets a host app replace any binding (its own PolicyEngine, WorkspaceFS, Logger...) before anything is resolved. */
export type ContainerOverrides = (container: Container) => void;

/** An empty container with the configuration bound: every module's one input. Singletons, built on first use. */
export function configuredContainer(config: Config): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind<Config>(TYPES.Config).toConstantValue(config);
  return container;
}

/**
 * The composition root: the server's modules (`modules/`), then the host's overrides. Everything is a singleton
 * built lazily from its ports, so an override of a port is picked up by everything that depends on it. Two things
 * are resolved now rather than on first use: the policy settings (a bad TERM_MCP_POLICY stops start-up) and the
 * confinement (the sandbox is checked and, with ALLOW_NETWORK, the filtering proxy listens before any command).
 */
export function buildContainer(config: Config, overrides?: ContainerOverrides): Container {
  const container = configuredContainer(config);
  container.load(...SERVER_MODULES);
  overrides?.(container);
  container.get<PolicySettings>(TYPES.PolicySettings);
  container.get<CommandConfinement>(TYPES.CommandConfinement);
  return container;
}

/**
 * Kills every running command of every session (stdin EOF, SIGTERM, HTTP shutdown), then stops the network proxy.
 * The store stays bound, so sessions opened afterwards (an embedder that goes on) are closed by the next call.
 * The proxy is unbound: its `onDeactivation` closes it, and only if it was ever started.
 */
export async function shutdownTerminal(container: Container): Promise<void> {
  await container.get<TerminalSessionStore>(TYPES.TerminalSessionStore).closeAll();
  // Every command is dead: its spooled output goes with the server (issue 24).
  container.get<OutputArchive>(TYPES.OutputArchive).discardAll();
  const spool = container.get<OutputSpool>(TYPES.OutputSpool).settings;
  if (spool !== undefined) rmSync(spool.directory, { recursive: true, force: true });
  if (container.isBound(TYPES.FilteringProxy)) await container.unbindAsync(TYPES.FilteringProxy);
}
