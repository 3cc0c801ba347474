/**
 * A connector as an operator gives it (the admin API's `connector` object,
 * shared/contract/admin-inputs.ts): its kind, the processor's address (empty: the kind's by the
 * channel's mode) and the kind's credentials. Credentials are write-only: the fields start empty,
 * are password fields, and nothing the gateway answers ever fills them (it never shows them).
 */
import type { CONNECTOR_CREDENTIALS, ConnectorKindName } from '../../../shared/contract/admin-inputs';
import { Field, Select } from './Field';

/** Each kind's credential fields, as the contract names them (the compiler holds them equal). */
export const CREDENTIALS = {
  opp: { required: ['entityId', 'accessToken'], optional: [] },
  adyen: { required: ['apiKey', 'merchantAccount'], optional: ['hmacKey'] },
  stripe: { required: ['apiKey'], optional: ['webhookSecret'] },
} as const satisfies typeof CONNECTOR_CREDENTIALS;
export const KINDS = Object.keys(CREDENTIALS) as ConnectorKindName[];

const KIND_NAMES: Readonly<Record<ConnectorKindName, string>> = {
  opp: 'opp (another gateway of the family)',
  adyen: 'Adyen (Checkout API v71)',
  stripe: 'Stripe (PaymentIntents)',
};

/** The fields in words; the secret ones are never shown again once saved. */
const LABELS: Readonly<Record<string, { readonly label: string; readonly secret: boolean }>> = {
  entityId: { label: 'Entity (entityId at the other gateway)', secret: false },
  accessToken: { label: 'Access token', secret: true },
  apiKey: { label: 'API key', secret: true },
  merchantAccount: { label: 'Merchant account', secret: false },
  hmacKey: { label: 'HMAC key (notifications)', secret: true },
  webhookSecret: { label: 'Webhook signing secret (whsec_…)', secret: true },
};

export interface ConnectorInput {
  readonly kind: ConnectorKindName;
  readonly baseUrl: string;
  readonly credentials: Readonly<Record<string, string>>;
}

export const emptyConnector = (kind: ConnectorKindName = 'opp'): ConnectorInput => ({
  kind,
  baseUrl: '',
  credentials: {},
});

/** The admin API's object: empty optional fields left out, the address only when typed. */
export function connectorBody(input: ConnectorInput): Record<string, string> {
  const { required, optional } = CREDENTIALS[input.kind];
  const body: Record<string, string> = { kind: input.kind };
  if (input.baseUrl.trim() !== '') body.baseUrl = input.baseUrl.trim();
  for (const field of [...required, ...optional] as string[]) {
    const value = input.credentials[field] ?? '';
    // a required field goes even when empty, so the API names it
    if (value !== '' || (required as readonly string[]).includes(field)) body[field] = value;
  }
  return body;
}

export function ConnectorFields({
  value,
  onValue,
  error,
  prefix,
}: {
  value: ConnectorInput;
  onValue: (next: ConnectorInput) => void;
  /** The API's message for a field of `prefix` (`connector`, `routes.0.connector`). */
  error: (name: string) => string | undefined;
  prefix: string;
}) {
  const { required, optional } = CREDENTIALS[value.kind];
  return (
    <>
      <Select
        label="Connector kind"
        value={value.kind}
        onValue={(kind) => onValue(emptyConnector(kind as ConnectorKindName))}
        options={KINDS.map((kind) => [kind, KIND_NAMES[kind]])}
        error={error(`${prefix}.kind`)}
      />
      <Field
        label="Processor URL"
        type="url"
        value={value.baseUrl}
        onValue={(baseUrl) => onValue({ ...value, baseUrl })}
        hint="Empty: the kind's address for the channel's mode"
        error={error(`${prefix}.baseUrl`)}
      />
      {([...required, ...optional] as string[]).map((field) => {
        const { label, secret } = LABELS[field] ?? { label: field, secret: true };
        return (
          <Field
            key={`${value.kind}-${field}`}
            label={(optional as readonly string[]).includes(field) ? `${label} (optional)` : label}
            type={secret ? 'password' : 'text'}
            autoComplete={secret ? 'new-password' : 'off'}
            value={value.credentials[field] ?? ''}
            onValue={(typed) => onValue({ ...value, credentials: { ...value.credentials, [field]: typed } })}
            {...(secret ? { hint: 'Write-only: stored sealed, never shown again' } : {})}
            error={error(`${prefix}.${field}`)}
          />
        );
      })}
    </>
  );
}
