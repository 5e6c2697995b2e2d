import express, { Router } from 'express';

/**
 * The browser UI, public (it holds no data; every call it makes carries the bearer token): `GET /` serves
 * `index.html` and `/static/*` the assets, with no directory listing and no dotfiles.
 */
export function createStaticUiRouter(staticDir: string): Router {
  const router = Router();
  router.get('/', (_req, res, next) => {
    res.sendFile('index.html', { root: staticDir }, (error) => {
      if (error) next(error);
    });
  });
  router.use('/static', express.static(staticDir, { index: false, dotfiles: 'ignore', redirect: false }));
  return router;
}

/**
 * The project's own docs (`/docs/*.md`), public, so the `Link: </docs/compatibility.md>; rel="deprecation"` header of
 * the deprecated routes points at a page this server really serves.
 */
export function createDocsRouter(docsDir: string): Router {
  const router = Router();
  router.use(
    '/docs',
    express.static(docsDir, {
      index: false,
      dotfiles: 'ignore',
      redirect: false,
      extensions: false,
      setHeaders: (res, file) => {
        if (file.endsWith('.md')) res.setHeader('Content-Type', 'text/markdown; charset=utf-8');
      },
    }),
  );
  return router;
}
