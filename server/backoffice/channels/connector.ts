/**
 * A channel's connector as an operator configures it, for every face (DECISIONS, "Connectors and
 * processors"; issue 33 point 4): the admin API's `connector` object (`kind`, `baseUrl` and the
 * kind's credentials) checked field by field (errors name `connector.<field>`, the CLI shows its
 * flags), the processor's address defaulted by the channel's mode, and what to give the processor
 * afterwards (the notification address). Credentials are stored sealed (shared/sealing) and never
 * shown again: the views are settings.ts's ConnectorView.
 */
import {
  CONNECTOR_KIND_NAMES,
  type ConnectorKindName,
  CONNECTOR_CREDENTIALS as CREDENTIALS,
} from '../../../shared/contract/admin-inputs';
import type { ChannelMode, ConnectorSettings } from '../../../shared/engine/core/model';
import { type FieldError, invalid, shown } from '../errors';

// the kinds and each kind's credential fields (required, then optional) are the contract's
export { CONNECTOR_KIND_NAMES, type ConnectorKindName };

/**
 * The processor's address by the channel's mode, when it has one for everybody. Adyen's live
 * Checkout address carries the merchant's own prefix, so a LIVE Adyen channel must give it.
 */
const DEFAULT_URLS: {
  readonly [K in ConnectorKindName]: {
    readonly TEST?: string;
    readonly LIVE?: string;
    readonly missing: string;
  };
} = {
  opp: { missing: 'is required for an opp connector: the other gateway’s base URL' },
  adyen: {
    TEST: 'https://checkout-test.adyen.com/v71',
    missing:
      'is required for a LIVE adyen channel: Adyen’s live Checkout address carries the merchant’s live prefix ' +
      '(https://{PREFIX}-checkout-live.adyenpayments.com/checkout/v71, from the Customer Area)',
  },
  stripe: { TEST: 'https://api.stripe.com', LIVE: 'https://api.stripe.com', missing: 'is required' },
};

/** A connector as given, checked but not yet tied to a channel's mode (the URL may be absent). */
export interface ConnectorChange {
  readonly kind: ConnectorKindName;
  readonly baseUrl?: string;
  readonly credentials: Readonly<Record<string, string>>;
}

/** Processor addresses: http(s), no credentials, query or fragment; without a trailing slash. */
function checkUrl(value: unknown, name: string): string | FieldError {
  const error = (message: string): FieldError => ({ name, value: shown(value), message });
  if (typeof value !== 'string') return error('must be a URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return error('is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return error('must start with https:// or http://');
  if (url.username !== '' || url.password !== '')
    return error('must not contain credentials: give them in the kind’s credential fields');
  if (url.search !== '' || url.hash !== '') return error('must not have a query or fragment');
  return url.href.replace(/\/+$/, '');
}

/** Secrets and account names: 1 to 1024 printable characters without spaces, never echoed. */
const SECRET = /^[\x21-\x7e]{1,1024}$/;
const SECRETS = new Set(['accessToken', 'apiKey', 'hmacKey', 'webhookSecret']);

/** The admin API's `connector` object checked: every field's error at once. */
export function parseConnector(value: unknown, name = 'connector'): ConnectorChange | FieldError[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [
      {
        name,
        value: shown(value),
        message: 'must be an object with kind, baseUrl and the kind’s credentials',
      },
    ];
  const input = value as Record<string, unknown>;
  const kind = input.kind ?? 'opp';
  if (typeof kind !== 'string' || !(CONNECTOR_KIND_NAMES as readonly string[]).includes(kind))
    return [
      {
        name: `${name}.kind`,
        value: shown(kind),
        message: `must be one of ${CONNECTOR_KIND_NAMES.join(', ')}`,
      },
    ];
  const fields: { readonly required: readonly string[]; readonly optional: readonly string[] } =
    CREDENTIALS[kind as ConnectorKindName];
  const errors: FieldError[] = [];
  let baseUrl: string | undefined;
  if (input.baseUrl !== undefined) {
    const url = checkUrl(input.baseUrl, `${name}.baseUrl`);
    if (typeof url === 'string') baseUrl = url;
    else errors.push(url);
  }
  const credentials: Record<string, string> = {};
  for (const field of [...fields.required, ...fields.optional]) {
    const v = input[field];
    const fieldName = `${name}.${field}`;
    if (v === undefined) {
      if (fields.required.includes(field))
        errors.push({
          name: fieldName,
          value: null,
          message: `is required for an ${kind} connector: its credentials must be given together`,
        });
    } else if (typeof v !== 'string' || !SECRET.test(v))
      errors.push({
        name: fieldName,
        // a credential is never echoed, even a wrong one
        value: SECRETS.has(field) ? null : shown(v),
        message: 'must be 1 to 1024 printable characters without spaces',
      });
    else credentials[field] = v;
  }
  const known = new Set(['kind', 'baseUrl', ...fields.required, ...fields.optional]);
  for (const field of Object.keys(input))
    if (!known.has(field))
      errors.push({
        name: `${name}.${field}`,
        value: null,
        message: `is not a field of an ${kind} connector (${[...known].join(', ')})`,
      });
  if (errors.length > 0) return errors;
  return { kind: kind as ConnectorKindName, ...(baseUrl === undefined ? {} : { baseUrl }), credentials };
}

/** The connector's settings on a channel of `mode`: its URL given, or the kind's by the mode. */
export function resolveConnector(
  change: ConnectorChange,
  mode: ChannelMode,
  name = 'connector',
): ConnectorSettings {
  const defaults = DEFAULT_URLS[change.kind];
  const baseUrl = change.baseUrl ?? defaults[mode];
  if (baseUrl === undefined)
    throw invalid([{ name: `${name}.baseUrl`, value: null, message: defaults.missing }]);
  const c = change.credentials;
  switch (change.kind) {
    case 'opp':
      // stored without a kind, as before kinds existed (registry.ts: no kind is opp)
      return { baseUrl, entityId: c.entityId!, accessToken: c.accessToken! };
    case 'adyen':
      return {
        kind: 'adyen',
        baseUrl,
        apiKey: c.apiKey!,
        merchantAccount: c.merchantAccount!,
        ...(c.hmacKey === undefined ? {} : { hmacKey: c.hmacKey }),
      };
    case 'stripe':
      return {
        kind: 'stripe',
        baseUrl,
        apiKey: c.apiKey!,
        ...(c.webhookSecret === undefined ? {} : { webhookSecret: c.webhookSecret }),
      };
  }
}

/** The kind a stored connector is (no kind: opp). */
export const kindName = (connector: ConnectorSettings): ConnectorKindName => connector.kind ?? 'opp';

/** Where the processor sends its notifications for this channel, on the channel's environment address. */
export const notificationPath = (connector: ConnectorSettings, entityId: string): string =>
  `/connectors/${kindName(connector)}/notifications/${entityId}`;

/**
 * What to give the processor once its connector is set: the notification address (absolute when
 * the face knows the channel's environment address) and where its signing secret comes from. The
 * processors generate the secrets themselves (Adyen's HMAC key in its Customer Area, Stripe's
 * `whsec_` when the endpoint is added), so the gateway has none to show.
 */
export interface ConnectorSetup {
  readonly notificationPath: string;
  readonly notificationUrl?: string;
  readonly signature: string;
}

const SIGNATURES: Readonly<Record<ConnectorKindName, string>> = {
  opp: 'none: the other gateway’s notifications are its webhooks, configured there',
  adyen: 'HMAC: generate the key with the webhook in Adyen’s Customer Area, give it as hmacKey',
  stripe: 'Stripe-Signature: give the endpoint’s signing secret (whsec_…) as webhookSecret',
};

export function connectorSetup(
  connector: ConnectorSettings,
  entityId: string,
  baseAddress?: string,
): ConnectorSetup {
  const path = notificationPath(connector, entityId);
  return {
    notificationPath: path,
    ...(baseAddress === undefined ? {} : { notificationUrl: `${baseAddress.replace(/\/+$/, '')}${path}` }),
    signature: SIGNATURES[kindName(connector)],
  };
}
