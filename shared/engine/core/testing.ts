/** Fixtures for engine tests: a test channel and a parser that fails loudly on invalid bodies. */
import { parseRequest, type RequestKind, type RequestOf } from '../../params/requests';
import type { Channel } from './model';

export const testChannel: Channel = {
  id: '8a8294174b7ecb28014b9699220015ca',
  merchantId: 'm'.repeat(32),
  name: 'Test_Channel',
  mode: 'TEST',
  settings: {},
  createdAt: new Date(0),
};

export function parsed<K extends RequestKind>(kind: K, body: string): RequestOf<K> {
  const result = parseRequest(kind, body);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}
