import express, { Router } from 'express';
import type { VendorFiles } from './vendor-files.js';

/**
 * The browser UI, public (it holds no data; every call it makes carries the bearer token): `GET /` serves
 * `index.html`, `/static/*` the assets (no directory listing, no dotfiles) and `/vendor/<name>` the few package
 * files it loads (xterm.js), named one by one.
 *
 * Every path in the page is relative, so the UI also works when a host app mounts the HTTP app under a prefix
 * (`host.use('/terminal', …)`); `/terminal` is redirected to `/terminal/` so those relative paths resolve inside it.
 */
export function createStaticUiRouter(staticDir: string, vendorFiles: VendorFiles = {}): Router {
  const router = Router();
  router.get('/', (req, res, next) => {
    const [pathname, query] = splitUrl(req.originalUrl);
    if (!pathname.endsWith('/')) {
      res.redirect(308, `${pathname}/${query}`);
      return;
    }
    res.sendFile('index.html', { root: staticDir }, (error) => {
      if (error) next(error);
    });
  });
  router.use('/static', express.static(staticDir, { index: false, dotfiles: 'ignore', redirect: false }));
  router.get('/vendor/:name', (req, res, next) => {
    const name = req.params.name;
    const file = Object.hasOwn(vendorFiles, name) ? vendorFiles[name] : undefined;
    if (file === undefined) {
      next();
      return;
    }
    res.sendFile(file, (error) => {
      if (error) next(error);
    });
  });
  return router;
}

function splitUrl(url: string): [string, string] {
  const mark = url.indexOf('?');
  return mark < 0 ? [url, ''] : [url.slice(0, mark), url.slice(mark)];
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
