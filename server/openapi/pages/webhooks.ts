/**
 * /docs/webhooks: what a notification is (shared/engine/answers/notifications.ts), how it is
 * encrypted (server/webhooks/encryption.ts: AES-256-GCM, hex body, IV and tag headers) and how a
 * receiver decrypts it in Node, PHP and Python.
 */
import { NOTIFICATION_TYPES } from '../../../shared/engine/answers/notifications';
import { code, esc, layout, pre } from './layout';

const NODE = `import { createDecipheriv } from 'node:crypto';

// key: the webhook's 64 hex characters; body: the request body as text (hex)
export function decrypt(key, headers, body) {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'hex'),
    Buffer.from(headers['x-initialization-vector'], 'hex'));
  decipher.setAuthTag(Buffer.from(headers['x-authentication-tag'], 'hex'));
  const plain = Buffer.concat([decipher.update(Buffer.from(body, 'hex')), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}`;

const PHP = `<?php
// $key: the webhook's 64 hex characters; $body: file_get_contents('php://input')
function decrypt(string $key, string $iv, string $tag, string $body): array {
    $plain = openssl_decrypt(hex2bin($body), 'aes-256-gcm', hex2bin($key),
        OPENSSL_RAW_DATA, hex2bin($iv), hex2bin($tag));
    if ($plain === false) { throw new RuntimeException('not from the gateway'); }
    return json_decode($plain, true, 512, JSON_THROW_ON_ERROR);
}
$n = decrypt($key, $_SERVER['HTTP_X_INITIALIZATION_VECTOR'], $_SERVER['HTTP_X_AUTHENTICATION_TAG'],
    file_get_contents('php://input'));`;

const PYTHON = `import json
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

# key: the webhook's 64 hex characters; body: the request body as text (hex)
def decrypt(key: str, iv: str, tag: str, body: str) -> dict:
    plain = AESGCM(bytes.fromhex(key)).decrypt(bytes.fromhex(iv), bytes.fromhex(body) + bytes.fromhex(tag), None)
    return json.loads(plain)

notification = decrypt(key, request.headers["X-Initialization-Vector"],
                       request.headers["X-Authentication-Tag"], request.get_data(as_text=True))`;

export function webhooksPage(): string {
  const body = `
<p>The operator registers a merchant's webhook with the admin API (${code('POST /admin/v1/merchants/{merchantId}/webhooks')}: ${code('url')}, ${code('key')}, ${code('types')}, ${code('paymentTypes')}, ${code('encrypted')}). Each change is then posted as ${code('{"type", "action", "payload"}')}, ${code('payload')} being the API's answer for it. Types: ${NOTIFICATION_TYPES.map(code).join(', ')}.</p>
<h2>Delivery</h2>
<p>Any 2xx within 30 seconds delivers a notification; otherwise it is sent again on a growing schedule for 30 days, then dead-lettered (the delivery log and redelivery are in the admin API). Notifications of one payment, and of what references it, arrive in order.</p>
<h2>Decryption</h2>
<p>The body is the notification encrypted with AES-256-GCM under the webhook's key, written in hex; the ${code('X-Initialization-Vector')} and ${code('X-Authentication-Tag')} headers carry the IV and tag in hex. A body that does not decrypt did not come from the gateway. A webhook registered with ${code('encrypted: false')} gets plain JSON.</p>
<h3>Node</h3>
${pre(NODE, 'Node')}
<h3>PHP</h3>
${pre(PHP, 'PHP')}
<h3>Python</h3>
${pre(PYTHON, 'Python')}
<p>${esc('Answer 2xx quickly and process afterwards: a slow receiver gets the notification again.')}</p>`;
  return layout('/docs/webhooks', 'Webhooks', body);
}
