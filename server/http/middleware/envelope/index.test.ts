import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { testEnvelope } from '../../../test-kit/middleware';
import { MAX_LISTED_PARAMETER_ERRORS } from '../body';
import { invalid, JSON_HEADERS, statusOf } from '.';

describe('envelope', () => {
  const env = testEnvelope();

  it('writes the body, then result, buildNumber, timestamp and ndc, with the JSON headers', async () => {
    const a = new Hono();
    a.get('/', (c) => env.send(c, 200, { code: '000.000.000', description: 'ok' }, { id: 'x' }, 'n'));
    const res = await a.request('/');
    expect(res.headers.get('content-type')).toBe(JSON_HEADERS['Content-Type']);
    expect(res.headers.get('cache-control')).toBe(JSON_HEADERS['Cache-Control']);
    expect(await res.text()).toBe(
      `{"id":"x","result":{"code":"000.000.000","description":"ok"},"buildNumber":"${'0'.repeat(40)}@1970-01-01 00:00:00 +0000","timestamp":"1970-01-01 00:00:00+0000","ndc":"n"}`,
    );
  });

  it('lists at most the first parameter errors', async () => {
    const a = new Hono();
    const errors = Array.from({ length: MAX_LISTED_PARAMETER_ERRORS + 5 }, (_, i) => ({
      name: `p${i}`,
      value: null,
      message: 'is required',
    }));
    a.get('/', (c) => invalid(env, c, 400, errors));
    const body = await (await a.request('/')).json();
    expect(body.result.parameterErrors).toHaveLength(MAX_LISTED_PARAMETER_ERRORS + 1);
  });

  it('answers success and pending with 200, the rest with 400', () => {
    expect(statusOf('000.000.000')).toBe(200);
    expect(statusOf('000.200.000')).toBe(200);
    expect(statusOf('800.100.100')).toBe(400);
  });
});
