/**
 * Everything one `form.paymentWidgets` shows: the checkout's notice (closed, invalid), stored
 * registrations, then one form per payment method (wallets: a button each), the modal of 3-D Secure challenges and inline
 * redirect flows (outside every form), and a polite live region.
 */
import { type Signal, signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { Card } from '../components/Card/Card';
import { DirectDebit } from '../components/DirectDebit/DirectDebit';
import { GiftCard } from '../components/GiftCard/GiftCard';
import { Message } from '../components/internal/Field';
import { PaymentModal } from '../components/internal/PaymentModal';
import { OneClick } from '../components/OneClick/OneClick';
import { Redirect } from '../components/Redirect/Redirect';
import { VirtualAccount } from '../components/VirtualAccount/VirtualAccount';
import { Wallet } from '../components/Wallet/Wallet';
import { fill } from '../language';
import type { Method } from './brands';
import { formatAmount, useWidget, type WidgetContext } from './context';

/** The pay button's text: the page's `labels.submit`, else "Save" for registrations, else "Pay <amount>". */
export function payLabel(ctx: WidgetContext): string {
  const { labels } = ctx.strings;
  const own = ctx.settings.labels;
  if (own !== null && typeof own === 'object' && typeof (own as { submit?: unknown }).submit === 'string') {
    return labels.submit;
  }
  const session = ctx.checkout.session.peek();
  if (session?.kind === 'registration') return labels.register;
  const amount = ctx.settings.checkoutAmount ?? session?.amount;
  if (!amount) return labels.submit;
  return fill(labels.submitAmount, { amount: formatAmount(amount, session?.currency, ctx.locale) });
}

export function Widget({ methods }: { readonly methods: readonly Method[] }) {
  const ctx = useWidget();
  const registrations = ctx.checkout.session.peek()?.registrations ?? [];
  const hide = ctx.settings.hideInitialPaymentForms && registrations.length > 0;
  const showOthers = useMemo(() => signal(!hide), []);
  const label = payLabel(ctx);
  return (
    <>
      <Notice />
      {registrations.length > 0 ? (
        <OneClick
          registrations={registrations}
          payLabel={label}
          onShowOthers={
            hide
              ? () => {
                  showOthers.value = true;
                }
              : undefined
          }
        />
      ) : null}
      <Methods show={showOthers}>
        {methods.map((m) => {
          switch (m.kind) {
            case 'card':
              return <Card key="card" brands={m.brands} payLabel={label} />;
            case 'directDebit':
              return <DirectDebit key={m.brand} brand={m.brand} payLabel={label} />;
            case 'virtualAccount':
              return <VirtualAccount key={m.brand} brand={m.brand} payLabel={label} />;
            case 'giftCard':
              return <GiftCard key={m.brand} brand={m.brand} payLabel={label} />;
            case 'wallet':
              return <Wallet key={m.brand} brand={m.brand} />;
            default:
              return <Redirect key={m.brand} brand={m.brand} />;
          }
        })}
      </Methods>
      <PaymentModal />
      <Announcer />
    </>
  );
}

function Notice() {
  const { checkout, strings } = useWidget();
  const closed = checkout.closed.value;
  return <Message text={closed ? strings.errorMessages[closed] : ''} />;
}

/** Re-renders alone when shown; its children are the same vnodes, so the forms are not re-rendered. */
function Methods({ show, children }: { show: Signal<boolean>; children: ComponentChildren }) {
  return (
    <div class="wpwl-methods" hidden={!show.value}>
      {children}
    </div>
  );
}

function Announcer() {
  const { announce } = useWidget();
  return (
    <div class="wpwl-sr-only" role="status" aria-live="polite">
      {announce.value}
    </div>
  );
}
