/**
 * Adyen's published Checkout API v71 (../shared/facts/connectors/adyen/CheckoutService-v71.json,
 * OpenAPI 3.1, i.e. JSON Schema 2020-12) as validators: every request the fake receives is
 * checked against its operation's request schema, every answer it gives against the answer
 * schema of its status, so that both sides of the Adyen suite speak what Adyen publishes.
 *
 * The document lives outside this repository (the workplace's ../shared); in a clone without it
 * `loadCheckoutSchema()` answers `undefined` and the fake says so (`schemaSkipped`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Where the published document is, beside this repository. */
export const CHECKOUT_DOCUMENT = fileURLToPath(
  new URL('../../../../../shared/facts/connectors/adyen/CheckoutService-v71.json', import.meta.url),
);

/** Adyen's published standard notifications (Webhooks-v1.json), beside the Checkout document. */
export const WEBHOOKS_DOCUMENT = fileURLToPath(
  new URL('../../../../../shared/facts/connectors/adyen/Webhooks-v1.json', import.meta.url),
);

/**
 * Events whose published `additionalData` (additionalProperties false) leaves out `hmacSignature`,
 * though Adyen signs every item of its standard webhooks ("Verify HMAC signatures") and the
 * gateway refuses an unsigned one: their bodies are checked without the signature, all else as
 * published.
 */
const SIGNATURE_NOT_IN_DOCUMENT = new Set(['RECURRING_CONTRACT']);

/** `body` without its items' `additionalData.hmacSignature`. */
function unsigned(body: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as {
    notificationItems?: { NotificationRequestItem?: { additionalData?: Record<string, unknown> } }[];
  };
  for (const item of copy.notificationItems ?? [])
    delete item.NotificationRequestItem?.additionalData?.hmacSignature;
  return copy;
}

/**
 * The notification body of each event checked against its webhook's published schema
 * (`webhooks['/CAPTURE']` …); undefined when the document is not here.
 */
export function loadWebhookSchema(
  file = WEBHOOKS_DOCUMENT,
): ((eventCode: string, body: unknown) => string | undefined) | undefined {
  if (!existsSync(file)) return undefined;
  const document = JSON.parse(readFileSync(file, 'utf8')) as {
    components: unknown;
    webhooks: Record<string, { post?: OpenApiOperation }>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'adyen-webhooks', components: document.components }, 'adyen-webhooks');
  const cache = new Map<string, ValidateFunction>();
  return (eventCode, body) => {
    const schema =
      document.webhooks[`/${eventCode}`]?.post?.requestBody?.content?.['application/json']?.schema;
    if (schema === undefined) return `${eventCode}: no such webhook in the published document`;
    if (!cache.has(eventCode))
      cache.set(
        eventCode,
        ajv.compile(
          JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"adyen-webhooks#/components/')),
        ),
      );
    const validate = cache.get(eventCode) as ValidateFunction;
    const checked = SIGNATURE_NOT_IN_DOCUMENT.has(eventCode) ? unsigned(body) : body;
    return validate(checked) ? undefined : ajv.errorsText(validate.errors, { separator: '; ' });
  };
}

/** One failure: which request or answer, and what the schema said. */
export interface SchemaFailure {
  readonly what: string;
  readonly errors: string;
}

export interface CheckoutSchema {
  /** The request body of `POST <path>` checked; undefined when it is valid. */
  request(path: string, body: unknown): string | undefined;
  /** An answer of `POST <path>` with `status` checked; undefined when it is valid. */
  response(path: string, status: number, body: unknown): string | undefined;
}

type OpenApi = {
  readonly paths: Record<string, Record<string, OpenApiOperation>>;
};
type OpenApiOperation = {
  readonly requestBody?: { content?: Record<string, { schema?: unknown }> };
  readonly responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

/** The document's path template that `path` is (`/payments/{paymentPspReference}/captures`). */
function templateOf(templates: readonly string[], path: string): string | undefined {
  const parts = path.split('/');
  return templates.find((template) => {
    const its = template.split('/');
    return its.length === parts.length && its.every((p, i) => p.startsWith('{') || p === parts[i]);
  });
}

/** Each document's validators, once per process: compiling /payments' alone takes seconds. */
const loaded = new Map<string, CheckoutSchema>();

/** The compiled schemas of the published document (one per process), or undefined when it is not here. */
export function loadCheckoutSchema(file = CHECKOUT_DOCUMENT): CheckoutSchema | undefined {
  const known = loaded.get(file);
  if (known !== undefined) return known;
  const schema = compileCheckoutSchema(file);
  if (schema !== undefined) loaded.set(file, schema);
  return schema;
}

function compileCheckoutSchema(file: string): CheckoutSchema | undefined {
  if (!existsSync(file)) return undefined;
  const document = JSON.parse(readFileSync(file, 'utf8')) as OpenApi & Record<string, unknown>;
  // The OpenAPI document's own keywords (example, x-…) are not JSON Schema's: not strict.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'adyen', components: document.components }, 'adyen');
  const ref = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"adyen#/components/'));
  const cache = new Map<string, ValidateFunction | undefined>();
  const compiled = (key: string, schema: unknown) => {
    if (!cache.has(key))
      cache.set(key, schema === undefined ? undefined : ajv.compile(ref(schema) as object));
    return cache.get(key);
  };
  const templates = Object.keys(document.paths);
  const operation = (path: string) => {
    const template = templateOf(templates, path);
    return template === undefined ? undefined : { template, post: document.paths[template]?.post };
  };
  const verdict = (validate: ValidateFunction | undefined, body: unknown, what: string) => {
    if (validate === undefined) return `${what}: the published document has no schema for it`;
    return validate(body) ? undefined : ajv.errorsText(validate.errors, { separator: '; ' });
  };
  return {
    request(path, body) {
      const found = operation(path);
      if (found?.post === undefined) return `POST ${path}: not an operation of the published document`;
      const schema = found.post.requestBody?.content?.['application/json']?.schema;
      return verdict(compiled(`request ${found.template}`, schema), body, `POST ${path}`);
    },
    response(path, status, body) {
      const found = operation(path);
      const answer = found?.post?.responses?.[String(status)];
      if (found === undefined || answer === undefined)
        return `POST ${path} ${status}: not an answer of the document`;
      const schema = answer.content?.['application/json']?.schema;
      return verdict(
        compiled(`response ${found.template} ${status}`, schema),
        body,
        `POST ${path} ${status}`,
      );
    },
  };
}
