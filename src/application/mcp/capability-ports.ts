/** What the dispatcher needs from the resource and prompt use cases (implemented in ../resources and ../prompts). */

export interface ResourceDescriptor {
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
  title?: string;
  description?: string;
}

export interface ResourceProvider {
  list(cursor: string | undefined, pageSize: number): Promise<{ resources: ResourceDescriptor[]; nextCursor?: string }>;
  templates(): ReadonlyArray<Record<string, unknown>>;
  /** `principal`: who asks (HTTP auth subject; undefined on stdio), for resources that belong to one caller. */
  read(uri: string, principal?: string): Promise<{ contents: Array<Record<string, unknown>> }>;
}

export interface PromptDescriptor {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface PromptProvider {
  list(): readonly PromptDescriptor[];
  get(name: string, args: Record<string, unknown> | undefined): { description?: string; messages: unknown[] };
}
