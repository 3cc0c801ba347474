import { describe, expect, it } from 'vitest';
import { RESULT_CODES } from '../shared/result-codes/catalogue.data';
import { createApp } from './app';

const app = createApp({
  commit: 'a89317e58e01406de09ff75de6c962f2365f66e9',
  builtAt: new Date('2026-11-21T10:00:00Z'),
  now: () => new Date('2026-11-21T12:34:56Z'),
});

describe('HTTP envelope', () => {
  it('serves the result-code catalogue with the envelope, content type and cache headers', async () => {
    const res = await app.request('/v1/resultcodes');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(res.headers.get('cache-control')).toBe('private, no-cache, no-store');
    const body = await res.json();
    expect(body.resultCodes).toHaveLength(RESULT_CODES.length);
    expect(body.resultCodes[0]).toEqual({ code: RESULT_CODES[0]![0], description: RESULT_CODES[0]![1] });
    expect(body.result.code).toBe('000.000.100');
    expect(body.buildNumber).toBe('a89317e58e01406de09ff75de6c962f2365f66e9@2026-11-21 10:00:00 +0000');
    expect(body.timestamp).toBe('2026-11-21 12:34:56+0000');
    expect(body.ndc).toMatch(/^[0-9a-f]{32}$/);
  });

  it('routes repeated slashes like single ones', async () => {
    const res = await app.request('http://localhost//v1//resultcodes');
    expect(res.status).toBe(200);
  });

  it('routes a path as its URL pathname: query and fragment left out, percent-encoding kept', async () => {
    expect((await app.request('http://localhost/v1/resultcodes?x=1#y')).status).toBe(200);
    expect((await app.request('http://localhost:8080/v1/resultcodes')).status).toBe(200);
    // the pathname keeps %72 as sent: no route of that name
    expect((await app.request('http://localhost/v1/%72esultcodes')).status).toBe(404);
    expect((await app.request('http://localhost/v1/x/../resultcodes')).status).toBe(200);
  });

  it('answers unknown paths with a JSON 404', async () => {
    const res = await app.request('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    const body = await res.json();
    expect(body.result.code).toBe('200.300.406');
  });
});
