/**
 * The document's `webhooks` are the contract's notifications (shared/contract/notification.ts):
 * one per type the gateway sends and the registration's test notification, each body the type's
 * schema or its encryption, with the headers a real delivery carries.
 */
import { describe, expect, it } from 'vitest';
import {
  encryptedNotification,
  NOTIFICATION_HEADERS,
  NOTIFICATIONS,
  notificationName,
  testNotification,
} from '../../shared/contract';
import { contractSchemas } from '../../shared/contract/json-schema';
import { NOTIFICATION_TYPES } from '../../shared/engine/core/notification';
import { testNotification as sentFirst } from '../backoffice/webhooks/registration';
import { encryptNotification } from '../webhooks/encryption';
import { signatureOf } from '../webhooks/signature';
import { openApiDocument, routeDocsFor } from './document';

// biome-ignore lint/suspicious/noExplicitAny: the document, read field by field
const doc: any = openApiDocument({ test: 'https://gateway.test' });
const KEY = 'A'.repeat(64);

describe("the document's webhooks", () => {
  it('are every notification type the gateway sends, and the test notification', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...NOTIFICATION_TYPES, 'test'].sort());
    expect(Object.keys(NOTIFICATIONS).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    // the merchants' document too: a production gateway serves it without the admin API
    expect(
      Object.keys(openApiDocument({ test: 'https://g.test' }, routeDocsFor('public')).webhooks as object),
    ).toEqual(Object.keys(doc.webhooks));
  });

  it("each body is the contract's notification of its type, or its encryption", () => {
    const schemas = contractSchemas();
    for (const type of Object.keys(doc.webhooks)) {
      const post = doc.webhooks[type].post;
      const name = notificationName(type);
      expect(post.requestBody.content['application/json'].schema.oneOf, type).toEqual([
        { $ref: '#/components/schemas/EncryptedNotification' },
        { $ref: `#/components/schemas/${name}` },
      ]);
      expect(doc.components.schemas[name], name).toEqual(schemas[name]);
      expect(doc.components.schemas[name].properties.type.const).toBe(type);
    }
  });

  it('name the headers a real encrypted delivery carries, in their shapes', () => {
    const json = JSON.stringify({ type: 'PAYMENT', payload: { id: 'x' } });
    const sealed = encryptNotification(KEY, json);
    const signature = signatureOf(KEY, sealed.body, new Date('2026-12-01T10:00:00Z'));
    const sent: Record<string, string> = { ...sealed.headers, 'X-Signature': signature };
    const parameters = doc.webhooks.PAYMENT.post.parameters as {
      name: string;
      in: string;
      required: boolean;
      schema: { pattern: string };
    }[];
    expect(parameters.map((p) => p.name)).toEqual(Object.keys(NOTIFICATION_HEADERS));
    for (const p of parameters) {
      expect(p.in).toBe('header');
      expect(sent[p.name], p.name).toMatch(new RegExp(p.schema.pattern));
    }
    expect(parameters.find((p) => p.name === 'X-Signature')?.required).toBe(true);
    expect(parameters.find((p) => p.name === 'X-Initialization-Vector')?.required).toBe(false);
    expect(encryptedNotification.safeParse(sealed.body).success).toBe(true);
  });

  it("the registration's test notification is the contract's", () => {
    const sent = JSON.parse(sentFirst('0'.repeat(32), new Date('2026-12-01T10:00:00Z')));
    expect(testNotification.safeParse(sent).error).toBeUndefined();
  });
});
