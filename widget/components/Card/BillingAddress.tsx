/**
 * The card form's billing address (billing-address.ts): a fieldset "Billing address" with a group per field
 * in the family's markup (`wpwl-group-street1`, `wpwl-control-country` …), shown only once it is
 * asked for (the page's options, or the gateway naming what an enrolled card needs). Each field is
 * checked when the shopper leaves it and again as they fix it.
 */
import { useMemo } from 'preact/hooks';
import { useWidget } from '../../core/context';
import type { BillingField } from '../../core/options';
import { bcp47 } from '../../language';
import { Group, hintId, TextInput } from '../internal/Field';
import { setError } from '../internal/form-model';
import type { BillingModel } from './billing-fields';
import { countryOptions } from './countries';
import type { CardModel } from './model';

/** The checks come with the form: the model takes them from this part (`./Card.tsx`). */
export { billingModel } from './billing-address';

/** Autocomplete tokens and lengths (the catalogue's maxima) of the text fields. */
const TEXT: Readonly<Record<Exclude<BillingField, 'country'>, [autocomplete: string, max: number]>> = {
  street1: ['address-line1', 100],
  city: ['address-level2', 80],
  postcode: ['postal-code', 16],
  state: ['address-level1', 50],
};

export function BillingAddress({ model }: { model: CardModel }) {
  const { strings } = useWidget();
  const billing = model.billing.value;
  if (billing === undefined) return null;
  return (
    <fieldset class="wpwl-group wpwl-group-billing wpwl-clearfix">
      <legend class="wpwl-label wpwl-label-billing">{strings.labels.billingAddress}</legend>
      {billing.fields.value.map((field) => (
        <BillingGroup key={field} field={field} model={model} billing={billing} />
      ))}
    </fieldset>
  );
}

function BillingGroup({
  field,
  model,
  billing,
}: {
  field: BillingField;
  model: CardModel;
  billing: BillingModel;
}) {
  const { strings } = useWidget();
  const { form } = model;
  const id = model.ids[field];
  const error = form.errors.value[field];
  const label = strings.labels[field];
  const value = billing.values.value[field] ?? '';
  const set = (next: string) => {
    billing.values.value = { ...billing.values.peek(), [field]: next };
    if (form.errors.peek()[field] !== undefined) setError(form, field, billing.check(field));
  };
  const leave = () => {
    if ((billing.values.peek()[field] ?? '') === '' && !form.touched.has(field)) return;
    form.touched.add(field);
    setError(form, field, billing.check(field));
  };
  return (
    <Group name={field} label={label} controlId={id} error={error}>
      {field === 'country' ? (
        <CountrySelect id={id} label={label} value={value} error={error} onChange={set} onBlur={leave} />
      ) : (
        <TextInput
          id={id}
          name={`billing.${field}`}
          cls={field}
          label={label}
          value={value}
          error={error}
          placeholder={label}
          autocomplete={`billing ${TEXT[field][0]}`}
          maxLength={TEXT[field][1]}
          onInput={set}
          onBlur={leave}
        />
      )}
    </Group>
  );
}

function CountrySelect(p: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const { settings, locale } = useWidget();
  const options = useMemo(() => countryOptions(bcp47(locale)), []);
  return (
    <select
      id={p.id}
      class={`wpwl-control wpwl-control-country${p.error ? ' wpwl-has-error' : ''}`}
      name="billing.country"
      autocomplete="billing country"
      value={p.value}
      aria-label={settings.showLabels ? undefined : p.label}
      aria-invalid={p.error ? 'true' : 'false'}
      aria-describedby={p.error ? hintId(p.id) : undefined}
      onChange={(e) => p.onChange(e.currentTarget.value)}
      onBlur={p.onBlur}
    >
      <option value="">{p.label}</option>
      {options.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </select>
  );
}
