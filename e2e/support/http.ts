/**
 * A real HTTP call from a flow, as a merchant's developer would make it: with curl when it is on
 * the PATH (the acceptance's "use the token with curl"), else Node's fetch.
 */
import { execFileSync } from 'node:child_process';

let curl: boolean | undefined;
function hasCurl(): boolean {
  if (curl === undefined) {
    try {
      execFileSync('curl', ['--version'], { stdio: 'ignore' });
      curl = true;
    } catch {
      curl = false;
    }
  }
  return curl;
}

/** GET `url` with `Authorization: Bearer <token>`: the status and the JSON body. */
export async function getWithToken(url: string, token: string): Promise<{ status: number; body: unknown }> {
  if (hasCurl()) {
    // -w prints the status on a line of its own after the body
    const out = execFileSync(
      'curl',
      ['-sS', '-H', `Authorization: Bearer ${token}`, '-w', '\n%{http_code}', url],
      {
        encoding: 'utf8',
      },
    );
    const at = out.lastIndexOf('\n');
    return { status: Number(out.slice(at + 1)), body: JSON.parse(out.slice(0, at)) };
  }
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}
