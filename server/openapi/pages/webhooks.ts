/**
 * /docs/webhooks: what a notification is (shared/engine/answers/notifications.ts), how it is
 * encrypted (server/webhooks/encryption.ts: AES-256-GCM, hex body, IV and tag headers) and how a
 * receiver checks its signature (server/webhooks/signature.ts: X-Signature) and decrypts it in
 * Node, PHP and Python.
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

const VERIFY_NODE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// header: the X-Signature header; body: the request body exactly as received (text)
export function fromGateway(key, header, body, nowSeconds = Date.now() / 1000) {
  const m = /^t=(\\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (m === null || Math.abs(nowSeconds - Number(m[1])) > 300) return false;
  const mac = createHmac('sha256', Buffer.from(key, 'hex')).update(\`\${m[1]}.\${body}\`).digest();
  return timingSafeEqual(mac, Buffer.from(m[2], 'hex'));
}`;

const VERIFY_PHP = `<?php
function from_gateway(string $key, string $header, string $body): bool {
    if (!preg_match('/^t=(\\d+),v1=([0-9a-f]{64})$/', $header, $m) || abs(time() - (int) $m[1]) > 300) {
        return false;
    }
    return hash_equals(hash_hmac('sha256', $m[1] . '.' . $body, hex2bin($key)), $m[2]);
}
$ok = from_gateway($key, $_SERVER['HTTP_X_SIGNATURE'] ?? '', file_get_contents('php://input'));`;

const VERIFY_PYTHON = `import hashlib, hmac, re, time

def from_gateway(key: str, header: str, body: str) -> bool:
    m = re.fullmatch(r"t=(\\d+),v1=([0-9a-f]{64})", header or "")
    if m is None or abs(time.time() - int(m[1])) > 300:
        return False
    mac = hmac.new(bytes.fromhex(key), f"{m[1]}.{body}".encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(mac, m[2])`;

export function webhooksPage(): string {
  const body = `
<p>The operator registers a merchant's webhook with the admin API (${code('POST /admin/v1/merchants/{merchantId}/webhooks')}: ${code('url')}, ${code('key')}, ${code('types')}, ${code('paymentTypes')}, ${code('encrypted')}). Each change is then posted as ${code('{"type", "action", "payload"}')}, ${code('payload')} being the API's answer for it. Types: ${NOTIFICATION_TYPES.map(code).join(', ')}.</p>
<h2>Delivery</h2>
<p>Any 2xx within 30 seconds delivers a notification; otherwise it is sent again on a growing schedule for 30 days, then dead-lettered (the delivery log and redelivery are in the admin API). Notifications of one payment, and of what references it, arrive in order.</p>
<h2>Signature</h2>
<p>Every notification, encrypted or plain, carries ${code('X-Signature: t=<unix seconds>,v1=<hex>')}: ${code('v1')} is HMAC-SHA256 of ${code('<t>.<body>')} (the body exactly as received, before decrypting or parsing) under the webhook's key read as 32 bytes. A receiver recomputes it, compares in constant time, and refuses a ${code('t')} more than five minutes from its clock (a replayed request). A plain-JSON notification shows account numbers (IBAN, bank account number) masked; an encrypted one carries the API's answer as it is.</p>
<h3>Node</h3>
${pre(VERIFY_NODE, 'Node')}
<h3>PHP</h3>
${pre(VERIFY_PHP, 'PHP')}
<h3>Python</h3>
${pre(VERIFY_PYTHON, 'Python')}
<h2>Decryption</h2>
<p>The body is the notification encrypted with AES-256-GCM under the webhook's key, written in hex; the ${code('X-Initialization-Vector')} and ${code('X-Authentication-Tag')} headers carry the IV and tag in hex. A body that does not decrypt did not come from the gateway. A webhook registered with ${code('encrypted: false')} gets plain JSON (signed, its account numbers masked).</p>
<h3>Node</h3>
${pre(NODE, 'Node')}
<h3>PHP</h3>
${pre(PHP, 'PHP')}
<h3>Python</h3>
${pre(PYTHON, 'Python')}
<p>${esc('Answer 2xx quickly and process afterwards: a slow receiver gets the notification again.')}</p>`;
  return layout('/docs/webhooks', 'Webhooks', body);
}
