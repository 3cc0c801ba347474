/**
 * The back office's actions on a payment, as `/v1/payments/{id}` does them: capture (a PA),
 * refund (a DB or CP), reversal (a PA), and in test a chargeback. Each asks first (ConfirmDialog:
 * the amount, what remains, a field prefilled with the remainder for partial actions) and says a
 * refusal in words (refusals.ts). What remains is the server's count (payment.remaining), never
 * the browser's. Merchant-viewers get none (the API refuses them too, 403).
 */
import { ApiError, post, seg } from '../api';
import { formatAmount, isAmount } from '../format';
import { refusalSentence } from '../refusals';
import { canChange } from '../state/session';
import type { PaymentSummary } from '../types';
import type { Remaining } from '../views';
import { Status } from './Alert';
import { ConfirmDialog } from './ConfirmDialog';
import { useAction } from './useAction';

interface Props {
  readonly merchantId: string;
  readonly payment: Partial<PaymentSummary> & { readonly id?: string; readonly remaining?: Remaining };
  readonly testEnvironment: boolean;
  readonly changed: () => void;
}

const SUCCESS = /^(000\.000\.|000\.100\.1|000\.[36])/;

interface Answer {
  readonly id?: string;
  readonly result?: { readonly code?: string; readonly description?: string };
}

interface Spec {
  readonly label: string;
  readonly path: string;
  /** What remains for this action (a decimal string), null when it does not apply. */
  readonly remaining: string | null;
  /** The word for what remains: "capturable", "refundable" … */
  readonly remains: string;
  /** Partial actions have an amount field. */
  readonly partial: boolean;
  readonly danger: boolean;
}

/** The API's refusal in words: the dashboard's sentence for its code, or the gateway's text. */
async function inWords<T>(work: () => Promise<T>, remaining: string | null, currency: string | null) {
  try {
    return await work();
  } catch (caught) {
    const code = caught instanceof ApiError ? caught.body.result?.code : undefined;
    const sentence = refusalSentence(code, { remaining, currency });
    if (sentence === undefined || !(caught instanceof ApiError)) throw caught;
    throw new ApiError(caught.status, sentence, caught.parameterErrors, caught.body);
  }
}

function MoneyAction({ spec, props }: { spec: Spec; props: Props }) {
  const { merchantId, payment, changed } = props;
  const action = useAction();
  const currency = payment.currency ?? null;
  const remaining = spec.remaining;
  const work = (typed: string | undefined) =>
    inWords(
      async () => {
        const answer = await post<Answer>(
          `/merchants/${seg(merchantId)}/payments/${seg(payment.id ?? '')}/${spec.path}`,
          typed === undefined || typed === '' ? {} : { amount: typed, currency },
        );
        changed();
        return `${spec.label}: ${answer.result?.description ?? 'done'} (${answer.id ?? ''})`;
      },
      remaining,
      currency,
    );
  const amount = spec.partial
    ? {
        label: `Amount (${currency ?? ''})`,
        initial: remaining ?? '',
        hint: remaining === null ? 'Empty: the whole amount' : `At most ${remaining}`,
        check: (typed: string) =>
          typed === '' || isAmount(typed) ? undefined : 'Enter an amount such as 10.00',
      }
    : undefined;
  return (
    <div class="inline-form">
      <ConfirmDialog
        label={spec.label}
        triggerLabel={`${spec.label} payment ${payment.id ?? ''}`}
        danger={spec.danger}
        action={action}
        confirm={spec.label}
        work={work}
        {...(amount === undefined ? {} : { amount })}
      >
        <dl class="facts">
          <dt>Payment</dt>
          <dd>
            {payment.paymentType} {formatAmount(payment.amount, currency)} <code>{payment.id}</code>
          </dd>
          <dt>Remaining {spec.remains}</dt>
          <dd>{remaining === null ? '—' : formatAmount(remaining, currency)}</dd>
        </dl>
        {!spec.partial && <p>This acts on the whole remaining amount and cannot be undone.</p>}
      </ConfirmDialog>
      {action.done !== undefined && <Status>{action.done}</Status>}
    </div>
  );
}

function specs(payment: Props['payment'], testEnvironment: boolean): Spec[] {
  const r = payment.remaining;
  const type = payment.paymentType;
  const of = (value: string | null | undefined) => value ?? null;
  const out: Spec[] = [];
  if (type === 'PA') {
    out.push({
      label: 'Capture',
      path: 'captures',
      remaining: of(r?.capturable),
      remains: 'capturable',
      partial: true,
      danger: false,
    });
    out.push({
      label: 'Reverse',
      path: 'reversals',
      remaining: of(r?.reversible),
      remains: 'reversible',
      partial: false,
      danger: true,
    });
    return out;
  }
  out.push({
    label: 'Refund',
    path: 'refunds',
    remaining: of(r?.refundable),
    remains: 'refundable',
    partial: true,
    danger: true,
  });
  if (testEnvironment)
    out.push({
      label: 'Book a chargeback',
      path: 'chargebacks',
      remaining: of(r?.chargeable),
      remains: 'chargeable',
      partial: true,
      danger: true,
    });
  return out;
}

export function BackOffice(props: Props) {
  const { payment, testEnvironment } = props;
  if (!canChange.value) return <p class="muted">Your role may look at payments, not change them.</p>;
  const succeeded = payment.status === 'success' || SUCCESS.test(payment.result?.code ?? '');
  const type = payment.paymentType;
  if (succeeded && type === 'CB' && testEnvironment)
    return (
      <MoneyAction
        spec={{
          label: 'Reverse the chargeback',
          path: 'chargeback-reversals',
          remaining: payment.amount ?? null,
          remains: 'charged back',
          partial: false,
          danger: true,
        }}
        props={props}
      />
    );
  if (!succeeded || (type !== 'PA' && type !== 'DB' && type !== 'CP'))
    return <p class="muted">No back-office action applies to this transaction.</p>;
  return (
    <div class="actions">
      {specs(payment, testEnvironment).map((spec) => (
        <MoneyAction key={spec.path} spec={spec} props={props} />
      ))}
    </div>
  );
}
