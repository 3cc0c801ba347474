/**
 * HTTPS for the harness's live address: a throwaway self-signed certificate for 127.0.0.1 made
 * with openssl at harness start (server/test-kit/tls.ts, valid one day, in the harness's
 * temporary folder), and a fetch for the shop's backend that trusts that certificate and no other
 * (the browser is told to accept it by the flows that go there: `ignoreHTTPSErrors`).
 */
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export { type Certificate, selfSignedCertificate } from '../../server/test-kit/tls';

/**
 * fetch over node:https trusting only `ca` (the harness's certificate); http URLs go to the global
 * fetch. Enough for a shop backend: the body is read whole, redirects are not followed.
 */
export function pinnedFetch(ca: Buffer): typeof fetch {
  const agent = new HttpsAgent({ ca, keepAlive: false });
  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (new URL(request.url).protocol !== 'https:') return fetch(request);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    return new Promise<Response>((resolve, reject) => {
      const req = httpsRequest(request.url, { method: request.method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const responseHeaders = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
            responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          const empty = request.method === 'HEAD' || [101, 204, 205, 304].includes(status);
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage ?? '',
              headers: responseHeaders,
            }),
          );
        });
      });
      req.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      req.end(body);
    });
  }) as typeof fetch;
}
