/**
 * A channel's routes as an operator replaces them (PATCH /admin/v1/channels/{id} with `routes`,
 * server/backoffice/channels/routes.ts): connectors in order, the first whose rules all match
 * takes the payment (brands, card countries, currencies, an amount range in minor units). Each
 * route's credentials are given again (write-only: the gateway never shows them back), so the
 * form starts from the routes' rules and kinds but empty credentials. Saving and removing are
 * confirmed: they change where the channel's money goes.
 */
import { useState } from 'preact/hooks';
import { patch, seg } from '../api';
import { listOf } from '../format';
import type { Channel } from '../types';
import { ActionButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { ConnectorFields, type ConnectorInput, connectorBody, emptyConnector } from './ConnectorFields';
import { Field } from './Field';
import { useAction } from './useAction';

interface RouteInput {
  readonly connector: ConnectorInput;
  readonly brands: string;
  readonly countries: string;
  readonly currencies: string;
  readonly minAmount: string;
  readonly maxAmount: string;
}

type ShownRoute = NonNullable<Channel['routes']>[number];

const fromShown = (r: ShownRoute): RouteInput => ({
  connector: {
    ...emptyConnector((r.connector as { kind?: 'adyen' | 'stripe' }).kind ?? 'opp'),
    baseUrl: r.connector.baseUrl,
  },
  brands: (r.brands ?? []).join(' '),
  countries: (r.countries ?? []).join(' '),
  currencies: (r.currencies ?? []).join(' '),
  minAmount: r.minAmount === undefined ? '' : String(r.minAmount),
  maxAmount: r.maxAmount === undefined ? '' : String(r.maxAmount),
});

const blank = (): RouteInput => ({
  connector: emptyConnector(),
  brands: '',
  countries: '',
  currencies: '',
  minAmount: '',
  maxAmount: '',
});

/** A route as the API takes it: rules only when given; amounts as numbers when they are digits. */
function routeBody(r: RouteInput): Record<string, unknown> {
  const body: Record<string, unknown> = { connector: connectorBody(r.connector) };
  for (const field of ['brands', 'countries', 'currencies'] as const)
    if (r[field].trim() !== '') body[field] = listOf(r[field].toUpperCase());
  for (const field of ['minAmount', 'maxAmount'] as const) {
    const text = r[field].trim();
    // anything but digits goes as typed, so the API's message names the field
    if (text !== '') body[field] = /^\d+$/.test(text) ? Number(text) : text;
  }
  return body;
}

/** One route's fieldset: its connector, its rules, and its place in the order. */
function RouteFields(props: {
  route: RouteInput;
  place: number;
  error: (name: string) => string | undefined;
  onValue: (next: Partial<RouteInput>) => void;
  up: (() => void) | undefined;
  out: () => void;
}) {
  const { route: r, place: i, error, onValue } = props;
  const n = `routes.${i}`;
  const rule = (field: keyof Omit<RouteInput, 'connector'>, label: string, hint: string) => (
    <Field
      label={label}
      value={r[field]}
      onValue={(v) => onValue({ [field]: v })}
      hint={hint}
      error={error(`${n}.${field}`)}
    />
  );
  return (
    <fieldset>
      <legend>Route {i + 1}</legend>
      <ConnectorFields
        value={r.connector}
        onValue={(connector) => onValue({ connector })}
        error={error}
        prefix={`${n}.connector`}
      />
      {rule('brands', 'Brands', 'Separated by spaces; empty: any brand')}
      {rule('countries', 'Card countries', 'ISO 3166-1 alpha-2, from the card number; empty: any')}
      {rule('currencies', 'Currencies', 'ISO 4217; empty: any')}
      {rule('minAmount', 'Least amount (minor units)', 'Included, in cents or the currency’s minor unit')}
      {rule('maxAmount', 'Greatest amount (minor units)', 'Included; empty: no limit')}
      <div class="inline-form">
        {props.up && (
          <button type="button" class="secondary" onClick={props.up}>
            Move route {i + 1} up
          </button>
        )}
        <button type="button" class="secondary" onClick={props.out}>
          Take route {i + 1} out
        </button>
      </div>
    </fieldset>
  );
}

export function RoutesForm({ channel, saved }: { channel: Channel; saved: () => void }) {
  const [routes, setRoutes] = useState<RouteInput[]>((channel.routes ?? []).map(fromShown));
  const save = useAction();
  const remove = useAction();
  const path = `/channels/${seg(channel.entityId)}`;
  const change = (i: number, next: Partial<RouteInput>) =>
    setRoutes(routes.map((r, j) => (j === i ? { ...r, ...next } : r)));
  const move = (i: number) => {
    const next = [...routes];
    [next[i - 1], next[i]] = [next[i]!, next[i - 1]!];
    setRoutes(next);
  };
  return (
    <form onSubmit={(e) => e.preventDefault()} noValidate>
      {routes.map((r, i) => (
        <RouteFields
          key={i}
          route={r}
          place={i}
          error={save.field}
          onValue={(next) => change(i, next)}
          up={i > 0 ? () => move(i) : undefined}
          out={() => setRoutes(routes.filter((_, j) => j !== i))}
        />
      ))}
      <p>
        <button type="button" class="secondary" onClick={() => setRoutes([...routes, blank()])}>
          Add a route
        </button>
      </p>
      <ActionMessages action={save} />
      {routes.length > 0 && (
        <ActionButton
          action={save}
          confirm={`The channel's payments are routed to these ${routes.length} connectors in this order from now on, with the credentials given here; the routes before are replaced.`}
          work={async () => {
            await patch(path, { routes: routes.map(routeBody) });
            // the credentials typed are not kept on the page once sent
            setRoutes(routes.map((r) => ({ ...r, connector: { ...r.connector, credentials: {} } })));
            saved();
            return 'The routes were saved.';
          }}
        >
          Save routes
        </ActionButton>
      )}
      {channel.routes !== null && (
        <>
          <ActionButton
            action={remove}
            class="danger"
            confirm="The channel's routes and their stored credentials are deleted; its payments go to its one connector, or the simulator."
            work={async () => {
              await patch(path, { routes: null });
              saved();
              return 'The routes were removed.';
            }}
          >
            Remove every route
          </ActionButton>
          <ActionMessages action={remove} />
        </>
      )}
    </form>
  );
}
