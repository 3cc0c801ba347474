/**
 * The wallet sheet's markup: header, order, the test cards, the billing address, the message and
 * Pay / Cancel. It renders the sheet's state (sheet-model.ts); the handlers change it.
 */
import { useMemo } from 'preact/hooks';
import { COUNTRIES } from '../../shared/geo';
import { bcp47, fill, formatAmount, type Locale, type WalletTexts } from '../language';
import { AUTOCOMPLETE, billingFields, type Field, MAX, type State, walletName } from './sheet-model';
import type { SheetInit } from './wallet-protocol';

export interface Handlers {
  input(field: Field, value: string): void;
  leave(field: Field): void;
  card(id: string): void;
  pay(): void;
  cancel(): void;
}

interface Props {
  readonly s: State;
  readonly on: Handlers;
}

export function View({ s, on }: Props) {
  const { init, texts } = s;
  if (init === null) {
    return (
      <p class="loading" role="status">
        {texts.loading}
      </p>
    );
  }
  const money = (amount: string) => formatAmount(amount, s.order.currency, s.locale);
  return (
    <form
      class="sheet"
      aria-labelledby="sheet-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        on.pay();
      }}
    >
      <Header init={init} texts={texts} />
      <Order s={s} money={money} />
      <Cards s={s} on={on} />
      <Billing s={s} on={on} init={init} />
      <p class="message" role="alert">
        {s.dataError || s.message || (s.cards === 'error' ? texts.cardsError : '')}
      </p>
      <div class="actions">
        <button
          type="submit"
          class="pay"
          disabled={s.busy || !Array.isArray(s.cards)}
          aria-busy={s.busy ? 'true' : 'false'}
        >
          {s.busy
            ? texts.processing
            : s.order.amount === undefined
              ? texts.payPlain
              : fill(texts.pay, { amount: money(s.order.amount) })}
        </button>
        <button type="button" class="cancel" onClick={on.cancel}>
          {texts.cancel}
        </button>
      </div>
    </form>
  );
}

function Header({ init, texts }: { init: SheetInit; texts: WalletTexts }) {
  return (
    <>
      <header class="sheet-header">
        <h1 id="sheet-title">{fill(texts.title, { wallet: walletName(init.wallet) })}</h1>
        {init.options.sandbox === true ? <span class="badge">{texts.sandbox}</span> : null}
      </header>
      {init.options.merchantName ? (
        <p class="merchant">{fill(texts.merchant, { merchant: init.options.merchantName })}</p>
      ) : null}
    </>
  );
}

function Order({ s, money }: { s: State; money: (amount: string) => string }) {
  return (
    <section class="order" aria-live="polite">
      {s.order.items.length ? (
        <ul class="items">
          {s.order.items.map((item, i) => (
            <li key={`${i}:${item.label}`} class="item" data-type={item.type}>
              <span>{item.label}</span>
              <span>{money(item.price)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p class="total">
        <span>{s.texts.total}</span>
        <strong>{s.order.amount === undefined ? '…' : money(s.order.amount)}</strong>
      </p>
    </section>
  );
}

function Cards({ s, on }: Props) {
  return (
    <fieldset class="cards" disabled={s.busy}>
      <legend>{s.texts.chooseCard}</legend>
      {s.cards === 'loading' ? <p role="status">{s.texts.loading}</p> : null}
      {Array.isArray(s.cards)
        ? s.cards.map((c) => (
            <label key={c.id} class="card" data-network={c.network}>
              <input
                type="radio"
                name="card"
                value={c.id}
                checked={s.card === c.id}
                onChange={() => on.card(c.id)}
              />
              <span>{c.label}</span>
            </label>
          ))
        : null}
    </fieldset>
  );
}

function Billing({ s, on, init }: Props & { init: SheetInit }) {
  const fields = billingFields(init);
  const countries = useMemo(() => countryOptions(s.locale), [s.locale]);
  const { texts } = s;
  const label: Record<Field, string> = {
    name: texts.name,
    street: texts.street,
    city: texts.city,
    postcode: texts.postcode,
    country: texts.country,
    phone: texts.phone,
  };
  const control = (f: Field) => ({
    id: f,
    name: f,
    autocomplete: AUTOCOMPLETE[f],
    'aria-invalid': s.errors[f] ? ('true' as const) : ('false' as const),
    'aria-describedby': s.errors[f] ? `${f}-error` : undefined,
    value: s.values[f] ?? '',
  });
  if (!fields.length) return null;
  return (
    <fieldset class="billing" disabled={s.busy}>
      <legend>{texts.billingAddress}</legend>
      {fields.map((f) => (
        <div key={f} class={`field field-${f}`}>
          <label for={f}>{label[f]}</label>
          {f === 'country' ? (
            <select
              {...control(f)}
              onChange={(e) => {
                on.input(f, e.currentTarget.value);
                on.leave(f);
              }}
            >
              <option value="">—</option>
              {countries.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          ) : (
            <input
              {...control(f)}
              type={(f === 'phone' ? 'tel' : 'text') as 'text'}
              maxLength={MAX[f]}
              onInput={(e) => on.input(f, e.currentTarget.value)}
              onBlur={() => on.leave(f)}
            />
          )}
          {s.errors[f] ? (
            <p class="error" id={`${f}-error`}>
              {s.errors[f]}
            </p>
          ) : null}
        </div>
      ))}
    </fieldset>
  );
}

/** [code, name] of every country, named in the language and sorted by name. */
function countryOptions(locale: Locale): [string, string][] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([bcp47(locale)], { type: 'region' });
  } catch {
    names = undefined;
  }
  const out = COUNTRIES.map((c): [string, string] => [c.alpha2, names?.of(c.alpha2) ?? c.alpha2]);
  return out.sort((a, b) => a[1].localeCompare(b[1], bcp47(locale)));
}
