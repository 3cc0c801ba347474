/**
 * A channel's connector as an operator configures it, for every face (DECISIONS, "Connectors and
 * processors"; issue 33 point 4): the admin API's `connector` object (`kind`, `baseUrl` and the
 * kind's credentials) parsed with the contract's schema of its kind (errors name
 * `connector.<field>`, the CLI shows its flags), the processor's address defaulted by the channel's mode, and what to give the processor
 * afterwards (the notification address). Credentials are stored sealed (shared/sealing) and never
 * shown again: the views are settings.ts's ConnectorView.
 */
import * as z from 'zod';
import {
  CONNECTOR_KIND_NAMES,
  type ConnectorKindName,
  CREDENTIAL,
  CONNECTOR_CREDENTIALS as CREDENTIALS,
  connectorInput,
} from '../../../shared/contract/admin-inputs';
import type { ChannelMode, ConnectorSettings } from '../../../shared/engine/core/model';
import { invalid } from '../errors';

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
function processorUrl(value: unknown, ctx: z.RefinementCtx): string {
  const refuse = (message: string): never => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER as never;
  };
  if (typeof value !== 'string') return refuse('must be a URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse('must start with https:// or http://');
  if (url.username !== '' || url.password !== '')
    return refuse('must not contain credentials: give them in the kind’s credential fields');
  if (url.search !== '' || url.hash !== '') return refuse('must not have a query or fragment');
  return url.href.replace(/\/+$/, '');
}

/**
 * The connector fields whose value an error may echo: the kind, the address and the account's
 * names; never a credential (even a wrong one) or a field of no kind (a misnamed secret).
 */
export const SHOWN_CONNECTOR_FIELDS: ReadonlySet<string> = new Set([
  'kind',
  'baseUrl',
  'entityId',
  'merchantAccount',
]);

const NOT_AN_OBJECT = 'must be an object with kind, baseUrl and the kind’s credentials';

/**
 * One kind's connector object: the contract's (its fields, no other), the address parsed and
 * each credential's fault said in the admin API's words.
 */
function connectorOfKind(kind: ConnectorKindName) {
  const { required, optional } = CREDENTIALS[kind] as {
    readonly required: readonly string[];
    readonly optional: readonly string[];
  };
  const format = 'must be 1 to 1024 printable characters without spaces';
  const missing = `is required for an ${kind} connector: its credentials must be given together`;
  const credential = (isRequired: boolean) => {
    const text = z
      .string({ error: (issue) => (issue.input === undefined ? missing : format) })
      .regex(CREDENTIAL, format);
    return isRequired ? text : text.optional();
  };
  const contract = connectorInput.options[CONNECTOR_KIND_NAMES.indexOf(kind)] as z.ZodObject;
  const known = Object.keys(contract.shape);
  const fields = contract.extend({
    baseUrl: z.unknown().transform(processorUrl).optional(),
    ...Object.fromEntries(required.map((field) => [field, credential(true)])),
    ...Object.fromEntries(optional.map((field) => [field, credential(false)])),
  });
  return z.strictObject(fields.shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `is not a field of an ${kind} connector (${known.join(', ')})`
        : NOT_AN_OBJECT,
  });
}

const KINDS = Object.fromEntries(CONNECTOR_KIND_NAMES.map((kind) => [kind, connectorOfKind(kind)])) as Record<
  ConnectorKindName,
  ReturnType<typeof connectorOfKind>
>;

/**
 * The admin API's `connector` object (the contract's `connectorInput`): its kind first (opp when
 * absent), then that kind's fields, every fault at once, named `<name>.<field>`.
 */
export const connectorChange = z.unknown().transform((value, ctx): ConnectorChange => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: NOT_AN_OBJECT });
    return z.NEVER;
  }
  const kind = (value as { readonly kind?: unknown }).kind ?? 'opp';
  if (typeof kind !== 'string' || !(CONNECTOR_KIND_NAMES as readonly string[]).includes(kind)) {
    ctx.addIssue({
      code: 'custom',
      path: ['kind'],
      message: `must be one of ${CONNECTOR_KIND_NAMES.join(', ')}`,
    });
    return z.NEVER;
  }
  const parsed = KINDS[kind as ConnectorKindName].safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  }
  const { kind: _kind, baseUrl, ...credentials } = parsed.data as Record<string, string | undefined>;
  return {
    kind: kind as ConnectorKindName,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    credentials: Object.fromEntries(
      Object.entries(credentials).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  };
});

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
