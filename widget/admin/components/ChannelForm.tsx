/**
 * A channel's settings as an operator creates or changes them (server/backoffice/channels/settings.ts):
 * name and mode (creation only), brands and currencies (empty: all), 3-D Secure, whether a
 * one-click payment with a stored card asks for its CVV, the throttle per minute. The connector
 * and the routes have their own forms (ConnectorForm, RoutesForm): their credentials are write-only.
 */
import { useState } from 'preact/hooks';
import { listOf } from '../format';
import type { Channel } from '../types';
import { SubmitButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { Checkbox, Field, Select } from './Field';
import { onSubmit, useAction } from './useAction';

interface Props {
  readonly channel?: Channel;
  readonly submitLabel: string;
  readonly save: (body: Record<string, unknown>) => Promise<string>;
}

export function ChannelForm({ channel, submitLabel, save }: Props) {
  const [name, setName] = useState(channel?.name ?? '');
  const [mode, setMode] = useState<string>(channel?.mode ?? 'TEST');
  const [brands, setBrands] = useState((channel?.brands ?? []).join(' '));
  const [currencies, setCurrencies] = useState((channel?.currencies ?? []).join(' '));
  const [threeDSecure, setThreeDSecure] = useState(channel?.threeDSecure ?? false);
  const [requireCvv, setRequireCvv] = useState(channel?.registrationsRequireCvv ?? false);
  const throttleNow = channel?.throttlePerMinute ?? channel?.throttle ?? null;
  const [throttle, setThrottle] = useState(throttleNow === null ? '' : String(throttleNow));
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      const body: Record<string, unknown> = {
        threeDSecure,
        registrationsRequireCvv: requireCvv,
        brands: brands.trim() === '' ? null : listOf(brands),
        currencies: currencies.trim() === '' ? null : listOf(currencies),
        // anything but digits goes as typed, so the API's message names the field
        throttlePerMinute:
          throttle.trim() === ''
            ? null
            : /^\d+$/.test(throttle.trim())
              ? Number(throttle.trim())
              : throttle.trim(),
      };
      if (channel === undefined) {
        body.name = name.trim();
        body.mode = mode;
        // a new channel takes every brand and currency unless told otherwise
        if (body.brands === null) delete body.brands;
        if (body.currencies === null) delete body.currencies;
        if (body.throttlePerMinute === null) delete body.throttlePerMinute;
      }
      return save(body);
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      {channel === undefined && (
        <Field label="Channel name" value={name} onValue={setName} error={action.field('name')} />
      )}
      {channel === undefined && (
        <Select
          label="Mode"
          value={mode}
          onValue={setMode}
          options={[
            ['TEST', 'Test'],
            ['LIVE', 'Live'],
          ]}
          error={action.field('mode')}
        />
      )}
      <Field
        label="Brands"
        value={brands}
        onValue={setBrands}
        hint="Separated by spaces, for example VISA MASTER; empty: every brand"
        error={action.field('brands')}
      />
      <Field
        label="Currencies"
        value={currencies}
        onValue={setCurrencies}
        hint="ISO 4217 codes separated by spaces; empty: any currency"
        error={action.field('currencies')}
      />
      <Field
        label="Throttle (requests per minute)"
        value={throttle}
        onValue={setThrottle}
        inputMode="numeric"
        hint="Empty: the gateway's default"
        error={action.field('throttlePerMinute') ?? action.field('throttle')}
      />
      <Checkbox label="3-D Secure" checked={threeDSecure} onChecked={setThreeDSecure} />
      <Checkbox
        label="Ask for the CVV of a stored card (one-click)"
        checked={requireCvv}
        onChecked={setRequireCvv}
      />
      <ActionMessages action={action} />
      <SubmitButton action={action}>{submitLabel}</SubmitButton>
    </form>
  );
}
