/** A request parser for engine tests that fails loudly on invalid bodies. */
import { parseRequest, type RequestKind, type RequestOf } from '../../../shared/params/requests';

export function parsed<K extends RequestKind>(kind: K, body: string): RequestOf<K> {
  const result = parseRequest(kind, body);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}
