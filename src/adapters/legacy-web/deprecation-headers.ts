import type { RequestHandler } from 'express';

/** How the legacy web routes announce their retirement. */
export interface DeprecationNotice {
  /** HTTP-date after which the routes may be removed (RFC 8594 `Sunset`). */
  readonly sunset: string;
  /** Where the migration is documented (RFC 9745 `Link: <...>; rel="deprecation"`). */
  readonly link: string;
}

/** Sets `Deprecation: true`, `Sunset` and the deprecation `Link` on every response, errors included. */
export function deprecationHeaders(notice: DeprecationNotice): RequestHandler {
  const link = `<${notice.link}>; rel="deprecation"`;
  return (_req, res, next) => {
    res.setHeader('Deprecation', 'true');
    res.setHeader('Sunset', notice.sunset);
    res.setHeader('Link', link);
    next();
  };
}
