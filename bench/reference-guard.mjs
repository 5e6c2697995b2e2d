// The checks both SDK reference servers (bench/sdk-server.mjs, bench/sdk-v1-server.mjs) put in front of the SDK, so
// they do the same gatekeeping work term-mcp does at its door: a Host check (DNS rebinding) and the bearer token.

/** A guard for a server on `port` with `token` (empty: no token check). Answers and returns false when refused. */
export function referenceGuard(port, token) {
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return function admitted(req, res) {
    if (!allowedHosts.has(req.headers.host ?? '')) {
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden host"}}');
      return false;
    }
    if (token !== '' && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return false;
    }
    return true;
  };
}
