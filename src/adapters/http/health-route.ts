import { Router } from 'express';

export interface HealthInfo {
  name: string;
  version: string;
}

/** `GET /health`: public process health, mounted before every guard so monitors need no token. */
export function healthRoute(info: HealthInfo): Router {
  const router = Router();
  const body = Object.freeze({ status: 'ok', name: info.name, version: info.version });
  router.get('/health', (_req, res) => {
    res.status(200).json(body);
  });
  return router;
}
