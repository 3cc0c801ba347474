/**
 * The back office's actions on a payment, as `/v1/payments/{id}` does them: capture (a PA),
 * refund (a DB or CP), reversal (a PA), and in test a chargeback. Merchant-viewers get none (the
 * API refuses them too, 403).
 */
import { useState } from 'preact/hooks';
import { post, seg } from '../api';
import { isAmount } from '../format';
import { canChange } from '../state/session';
import type { PaymentSummary } from '../types';
import { ActionButton, SubmitButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { Field } from './Field';
import { onSubmit, useAction } from './useAction';

interface Props {
  readonly merchantId: string;
  readonly payment: Partial<PaymentSummary> & { readonly id?: string };
  readonly testEnvironment: boolean;
  readonly changed: () => void;
}

const SUCCESS = /^(000\.000\.|000\.100\.1|000\.[36])/;

interface Answer {
  readonly id?: string;
  readonly result?: { readonly code?: string; readonly description?: string };
}

function AmountAction({ label, path, props }: { label: string; path: string; props: Props }) {
  const { merchantId, payment, changed } = props;
  const [amount, setAmount] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const action = useAction();
  const submit = onSubmit(() => {
    const typed = amount.trim();
    if (typed !== '' && !isAmount(typed)) {
      setFieldError('Enter an amount such as 10.00');
      return;
    }
    setFieldError(undefined);
    return action.run(async () => {
      const answer = await post<Answer>(
        `/merchants/${seg(merchantId)}/payments/${seg(payment.id ?? '')}/${path}`,
        {
          ...(typed === '' ? {} : { amount: typed, currency: payment.currency }),
        },
      );
      changed();
      return `${label}: ${answer.result?.description ?? 'done'} (${answer.id ?? ''})`;
    });
  });
  return (
    <form class="inline-form" onSubmit={submit} noValidate aria-label={label}>
      <Field
        label={`${label} amount (${payment.currency ?? ''})`}
        value={amount}
        onValue={setAmount}
        inputMode="decimal"
        hint="Empty: the whole amount"
        error={fieldError ?? action.field('amount')}
      />
      <SubmitButton action={action}>{label}</SubmitButton>
      <ActionMessages action={action} />
    </form>
  );
}

function PlainAction({ label, path, props }: { label: string; path: string; props: Props }) {
  const { merchantId, payment, changed } = props;
  const action = useAction();
  return (
    <div class="inline-form">
      <ActionButton
        action={action}
        work={async () => {
          const answer = await post<Answer>(
            `/merchants/${seg(merchantId)}/payments/${seg(payment.id ?? '')}/${path}`,
            {},
          );
          changed();
          return `${label}: ${answer.result?.description ?? 'done'} (${answer.id ?? ''})`;
        }}
      >
        {label}
      </ActionButton>
      <ActionMessages action={action} />
    </div>
  );
}

export function BackOffice(props: Props) {
  const { payment, testEnvironment } = props;
  if (!canChange.value) return <p class="muted">Your role may look at payments, not change them.</p>;
  const succeeded = payment.status === 'success' || SUCCESS.test(payment.result?.code ?? '');
  const type = payment.paymentType;
  if (succeeded && type === 'CB' && testEnvironment)
    return <PlainAction label="Reverse the chargeback" path="chargeback-reversals" props={props} />;
  if (!succeeded || (type !== 'PA' && type !== 'DB' && type !== 'CP'))
    return <p class="muted">No back-office action applies to this transaction.</p>;
  return (
    <div class="actions">
      {type === 'PA' && <AmountAction label="Capture" path="captures" props={props} />}
      {type === 'PA' && <PlainAction label="Reverse" path="reversals" props={props} />}
      {type !== 'PA' && <AmountAction label="Refund" path="refunds" props={props} />}
      {type !== 'PA' && testEnvironment && (
        <AmountAction label="Book a chargeback" path="chargebacks" props={props} />
      )}
    </div>
  );
}
