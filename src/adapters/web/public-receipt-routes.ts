import { Router } from 'express';

export interface PublicReceiptRoutesOptions {
  /** The receipt JSON Schema, served as `GET /schemas/<file>`. */
  readonly schema: { readonly file: string; readonly body: Readonly<Record<string, unknown>> };
  /** `GET /demo/scenarios` answers `{scenarios}`. */
  readonly scenarios: readonly object[];
}

/**
 * Public routes (seed §7: no token needed, nothing private in them): the receipt JSON Schema and the demo scenarios.
 * They still sit behind the transport's security headers and Origin/Host guard.
 */
export function createPublicReceiptRouter(options: PublicReceiptRoutesOptions): Router {
  const router = Router();
  const schema = JSON.stringify(options.schema.body);
  const scenarios = Object.freeze({ scenarios: options.scenarios });
  router.get(`/schemas/${options.schema.file}`, (_req, res) => {
    res.status(200).type('application/schema+json').send(schema);
  });
  router.get('/demo/scenarios', (_req, res) => {
    res.status(200).json(scenarios);
  });
  return router;
}
