/**
 * The admin API's JSON request bodies, written once: the back office validates with these schemas
 * (server/backoffice: `parsed(schema, body)`), extending a field where the check needs the
 * gateway's catalogues (brands, ISO 4217, countries, IBAN check digits) or its own parsers (a
 * connector's address, the clock's durations) as `.extend` next to the procedure; the OpenAPI
 * document's request bodies are derived from them (json-schema.ts, `ADMIN_INPUTS` by component
 * name). Messages are the wire's (`parameterErrors[].message`). Browser-safe zod only: no server
 * import.
 */
import * as z from 'zod';
import { adminRole } from './admin-views';
import { notification } from './notification';
import { INPUT_CONTRACT } from './registry';

// ---- the rules every face shares -------------------------------------------------------------

export const MAX_NAME_LENGTH = 100;

/**
 * The one rule for the names an operator gives merchants and channels: trimmed, then 1 to 100
 * characters, no control, format (bidi overrides, zero-width) or unassigned characters, so a name
 * always prints as what it is.
 */
export const displayName = z
  .string({ error: 'is required: 1 to 100 characters' })
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .refine(
        (value) => [...value].length <= MAX_NAME_LENGTH,
        `must be at most ${MAX_NAME_LENGTH} characters`,
      )
      .refine((value) => !/\p{C}/u.test(value), 'must not contain control or invisible characters'),
  )
  // what the document says of it: the pipe's checks apply to the trimmed name
  .meta({ minLength: 1, maxLength: MAX_NAME_LENGTH, description: 'Trimmed; printable characters only.' });

/** Merchant, channel (entityId) and token ids: 32 lowercase hex characters. */
export const ID = /^[0-9a-f]{32}$/;

const DECIMAL = '^[0-9]{1,10}\\.[0-9]{2}$';
const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

// ---- merchants and tokens --------------------------------------------------------------------

export const newMerchantInput = z.object({ name: displayName });

/** (The CLI's `merchant set`: no admin route takes it, so the document names it not.) */
export const merchantUpdateInput = z.object({
  dispatching: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .describe('false: the merchant\u2019s notifications wait in the outbox.'),
});

export const newTokenInput = z.object({
  environment: z
    .enum(['test', 'live'], { error: 'must be test or live' })
    .optional()
    .describe("Its environment (the channels', else test)."),
  channels: z
    .array(z.string(), { error: 'must list the merchant\u2019s entityIds' })
    .optional()
    .describe("The merchant's entityIds it may use, all of one environment (none: all)."),
});

// ---- the session and users -------------------------------------------------------------------

export const signInInput = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  totp: z.string().optional().describe("The authenticator app's code, once TOTP is confirmed."),
});

/** Text fields as given (anything else is no text: a wrong password, a wrong code). */
const secretText = () => z.string().optional().catch(undefined);
const totpCode = () => secretText().meta({ pattern: '^[0-9]{6}$' });

export const passwordChangeInput = z.object({
  currentPassword: secretText().describe('Required: a wrong one counts as a failed sign-in.'),
  newPassword: z
    .unknown()
    .optional()
    .meta({ type: 'string', minLength: 12, description: 'Required: by the password rules.' }),
});

export const totpStartInput = z.object({
  password: secretText().describe('Required: the current password.'),
  code: totpCode().describe('Needed when a factor is confirmed.'),
});

export const totpConfirmInput = z.object({
  code: totpCode().describe('Required: a code from the authenticator app.'),
});

/** Usernames: 3 to 64 of letters, digits and `._@-`. */
export const USERNAME = /^[A-Za-z0-9._@-]{3,64}$/;

export const newUserInput = z.object({
  username: z.string().regex(USERNAME).describe('Unique.'),
  role: adminRole,
  merchantId: z.string().optional().describe('Required for merchant roles; none for operators.'),
  password: z
    .string()
    .min(12)
    .max(1024)
    .optional()
    .describe('Generated when not given (shown once); not trivial, not common, not the username.'),
});

// ---- channels --------------------------------------------------------------------------------

/** Each connector kind's credential fields: required, then optional (the admin API's names). */
export const CONNECTOR_CREDENTIALS = {
  opp: { required: ['entityId', 'accessToken'], optional: [] },
  adyen: { required: ['apiKey', 'merchantAccount'], optional: ['hmacKey'] },
  stripe: { required: ['apiKey'], optional: ['webhookSecret'] },
} as const satisfies Readonly<
  Record<string, { readonly required: readonly string[]; readonly optional: readonly string[] }>
>;
export type ConnectorKindName = keyof typeof CONNECTOR_CREDENTIALS;
export const CONNECTOR_KIND_NAMES = Object.keys(CONNECTOR_CREDENTIALS) as readonly ConnectorKindName[];

/** Secrets and account names: 1 to 1024 printable characters without spaces. */
export const CREDENTIAL = /^[\x21-\x7e]{1,1024}$/;
const credential = () => z.string().regex(CREDENTIAL);

/** One kind's connector object: kind (opp when absent), baseUrl, its credentials. */
function connectorOf(kind: ConnectorKindName) {
  const { required, optional } = CONNECTOR_CREDENTIALS[kind];
  return z.strictObject({
    kind: kind === 'opp' ? z.literal(kind).optional() : z.literal(kind),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("The processor's address; the kind's by the channel's mode when absent."),
    ...Object.fromEntries(required.map((field) => [field, credential()])),
    ...Object.fromEntries(optional.map((field) => [field, credential().optional()])),
  });
}

export const connectorInput = z
  .union(CONNECTOR_KIND_NAMES.map(connectorOf))
  .describe(
    'The processor a test EXTERNAL or live channel sends its payments to: `kind` (opp when absent), `baseUrl` and the kind\u2019s credentials, sealed at rest and never shown again.',
  );

/** A list of at least one (each once: a repeat is dropped). */
const currencies = () =>
  z
    .array(z.string().regex(/^[A-Z]{3}$/))
    .min(1)
    .describe('ISO 4217 codes.');
const brands = () => z.array(z.string()).min(1).describe('Brands of the catalogue.');
/** A channel's list: an array, or one text of them separated by spaces or commas; "all" and null: no restriction. */
const orAll = <S extends z.ZodType>(list: S) =>
  z
    .union([
      list,
      z.literal('all'),
      z.string().describe('The same list as one text, separated by spaces or commas.'),
    ])
    .nullable()
    .optional();

/** Each field trimmed first; the BIC and the country in either case. */
export const bankAccountInput = z
  .strictObject({
    holder: z.string().min(4).max(128),
    iban: z.string().describe('Checked by its check digits; spaces allowed.'),
    bic: z.string().regex(/^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$/),
    bankName: z.string().min(1).max(128).optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .optional(),
  })
  .describe("The merchant's bank account shown for bank transfers.");

/** The settings a creation and a change both take, in the order the back office names them. */
const BOOLEAN = 'must be true or false';
const THROTTLE = 'must be a whole number from 1 to 1000000, or null for the gateway default';

export const channelSettingsInput = z.strictObject({
  threeDSecure: z
    .boolean({ error: BOOLEAN })
    .optional()
    .describe('The gateway authenticates new cards with 3-D Secure.'),
  registrationsRequireCvv: z
    .boolean({ error: BOOLEAN })
    .optional()
    .describe(
      'One-click payments with a stored card carry its CVV (except brands whose cards may have none).',
    ),
  throttlePerMinute: z
    .int({ error: THROTTLE })
    .min(1, THROTTLE)
    .max(1_000_000, THROTTLE)
    .nullable()
    .optional()
    .describe('Requests per minute per token and operation; null: the gateway default.'),
  brands: orAll(brands()).describe('The brands it accepts ("all" or null: every one).'),
  currencies: orAll(currencies()).describe('The currencies it accepts ("all" or null: any).'),
  bankAccount: bankAccountInput.nullable().optional(),
  connector: connectorInput.nullable().optional(),
});

export const newChannelInput = channelSettingsInput.extend({
  name: displayName,
  mode: z
    .enum(['TEST', 'LIVE'], { error: 'must be TEST or LIVE' })
    .optional()
    .describe('Its environment (TEST by default).'),
});

export const MAX_ROUTES = 10;

const MINOR = 'must be a whole number of minor units (cents), from 0';
const minor = () => z.int({ error: MINOR }).min(0, MINOR);

export const connectorRouteInput = z.strictObject({
  connector: connectorInput,
  brands: brands().optional(),
  countries: z
    .array(z.string().regex(/^[A-Z]{2}$/))
    .min(1)
    .optional()
    .describe('Card countries (ISO 3166-1 alpha-2).'),
  currencies: currencies().optional(),
  minAmount: minor().optional().describe('Minor units, included.'),
  maxAmount: minor().optional().describe('Minor units, included; not below minAmount.'),
});

export const channelChangeInput = channelSettingsInput.extend({
  routes: z
    .array(connectorRouteInput)
    .min(1)
    .max(MAX_ROUTES)
    .nullable()
    .optional()
    .describe(
      'The connectors a payment is tried at, in order: the first whose rules (brands, card countries, currencies, amounts) all match; null removes them.',
    ),
});

export const riskRulesInput = z.object({
  rules: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'The default rule set (blockedBins, blockedCardCountries, blockedBillingCountries, blockedIps, allowedIps, blockedEmails, amount limits per currency, velocity limits …) and named `ruleSets` a request picks by risk.channelId; null: none. Money in minor units. Each fault is named (`rules.velocity[0].windowSeconds` …).',
    ),
});

// ---- webhooks --------------------------------------------------------------------------------

/** The notification types a webhook may ask for: the contract's notifications' (notification.ts). */
export const WEBHOOK_TYPES = notification.options.map((o) => o.shape.type.value);

export const webhookInput = z
  .object({
    inbox: z
      .boolean()
      .optional()
      .describe(
        "true: deliver into the gateway's own inbox (GET /admin/v1/merchants/{merchantId}/inbox) instead of a URL; test channels only.",
      ),
    url: z
      .url()
      .max(2048)
      .optional()
      .describe(
        'Where notifications are posted (https when the merchant has live channels); a test notification is sent first.',
      ),
    key: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .optional()
      .describe('The AES-256 key (64 hex characters); generated when not given.'),
    types: z
      .array(z.enum(WEBHOOK_TYPES))
      .min(1)
      .optional()
      .describe('The notification types it wants (PAYMENT and REGISTRATION when absent).'),
    paymentTypes: z
      .array(z.string().regex(/^[A-Z0-9]{2}$/))
      .min(1)
      .optional()
      .describe('Only payments of these types (DB, PA, CP, RF, CB …).'),
    encrypted: z.boolean().optional().describe('false: plain JSON instead of the encrypted body.'),
  })
  .describe('A URL, or `inbox: true`.');

// ---- payments, settlement, the clock ---------------------------------------------------------

export const referenceInput = z.object({
  amount: z.string().regex(new RegExp(DECIMAL)).optional().describe('As POST /v1/payments/{id}.'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
});

export const chargebackInput = z.object({
  amount: z.string({ error: 'must be a decimal string such as "10.00"' }).optional().meta({
    pattern: DECIMAL,
    description: 'A decimal string such as "10.00" (the whole amount when absent).',
  }),
  chargebackResultCode: z
    .string({ error: 'must be a string' })
    .optional()
    .meta({ pattern: '^[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}$' }),
});

export const settlementRunInput = z.object({
  date: z
    .string({ error: 'is required: a day as yyyy-MM-dd' })
    .refine((d) => DAY.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), {
      error: 'must be a day as yyyy-MM-dd',
    })
    .meta({ format: 'date', description: 'The UTC day; it must be over.' }),
  merchantId: z
    .string({ error: 'must be a merchant id' })
    .regex(ID, { error: 'must be a merchant id' })
    .optional()
    .describe('The merchant (the path names it in the admin API).'),
});

/**
 * A move of the test clock: exactly one of `advance` and `to`. The back office parses each value
 * with the clock's own parsers (server/backoffice/clock/moves.ts extends this schema); this is
 * what a client sends.
 */
export const clockMoveFields = {
  advance: z
    .union([z.int().min(0), z.string().regex(/^[0-9]+(ms|s|m|h|d)$/)])
    .optional()
    .describe('Milliseconds, or 90s, 31m, 2h, 30d …'),
  to: z.string().optional().meta({ format: 'date-time', description: 'An ISO 8601 time with its zone.' }),
};
export const clockMoveInput = z
  .strictObject(clockMoveFields, { error: 'is not a field of a clock move: give advance or to' })
  .describe('Exactly one of advance and to.');

/**
 * A move of registrations to another of their channel's routes (server/backoffice/registrations/move.ts):
 * the registrations named, or all of the merchant's; the route by its place in the channel's routes.
 */
export const registrationMoveInput = z
  .strictObject(
    {
      registrationIds: z
        .array(z.string().regex(ID, { error: 'must be registration ids' }), {
          error: 'must be a list of registration ids',
        })
        .min(1, { error: 'must name at least one registration' })
        .max(100, { error: 'must name at most 100 registrations' })
        .optional(),
      all: z.literal(true, { error: 'must be true: every registration of the merchant' }).optional(),
      route: z
        .int({ error: 'must be the place of a route in the channel’s routes (0 first)' })
        .min(0, { error: 'must be the place of a route in the channel’s routes (0 first)' }),
    },
    { error: 'is not a field of a registration move: give registrationIds or all, and route' },
  )
  .describe('Exactly one of registrationIds and all, and the route to move them to.');

/** Every admin request body the document names, by its component name. */
export const ADMIN_INPUTS = {
  AdminSignInInput: signInInput,
  AdminPasswordChangeInput: passwordChangeInput,
  AdminTotpStartInput: totpStartInput,
  AdminTotpConfirmInput: totpConfirmInput,
  AdminMerchantInput: newMerchantInput,
  AdminTokenInput: newTokenInput,
  AdminUserInput: newUserInput,
  AdminChannelInput: newChannelInput,
  AdminChannelChangeInput: channelChangeInput,
  AdminRiskRulesInput: riskRulesInput,
  AdminWebhookInput: webhookInput,
  AdminReferenceInput: referenceInput,
  AdminChargebackInput: chargebackInput,
  AdminSettlementRunInput: settlementRunInput,
  AdminClockMoveInput: clockMoveInput,
  AdminRegistrationMoveInput: registrationMoveInput,
} as const;

for (const [id, schema] of Object.entries(ADMIN_INPUTS)) INPUT_CONTRACT.add(schema, { id });

export type AdminInputName = keyof typeof ADMIN_INPUTS;
export type AdminInput<Name extends AdminInputName> = z.input<(typeof ADMIN_INPUTS)[Name]>;
