/**
 * Everything one `form.paymentWidgets` shows: the checkout's notice (closed, invalid), stored
 * registrations, then one form per planned payment method (wallets: a button each), the overlays
 * (the modal of 3-D Secure challenges and inline redirect flows, outside every form), and a polite
 * live region. Which component draws what is the registry's (`registry.ts`); nothing here names a
 * method.
 */
import { type Signal, signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { fill } from '../language';
import { shownMoney } from './amount';
import type { Method } from './brands';
import { formatAmount, useWidget, type WidgetContext } from './context';
import { Message } from './Message';
import { registry as defaultRegistry, type Registry } from './registry';

/** The pay button's text: the page's `labels.submit`, else "Save" for registrations, else "Pay <amount>". */
export function payLabel(ctx: WidgetContext): string {
  const { labels } = ctx.strings;
  const own = ctx.settings.labels;
  if (own !== null && typeof own === 'object' && typeof (own as { submit?: unknown }).submit === 'string') {
    return labels.submit;
  }
  // Read as a value: the label follows the session (fast checkout's checkout, once created).
  const session = ctx.checkout.session.value;
  if (session?.kind === 'registration') return labels.register;
  const { amount, currency } = shownMoney(ctx.settings, session);
  if (!amount) return labels.submit;
  return fill(labels.submitAmount, { amount: formatAmount(amount, currency, ctx.locale) });
}

export function Widget({
  methods,
  registry = defaultRegistry,
}: {
  readonly methods: readonly Method[];
  readonly registry?: Registry;
}) {
  const ctx = useWidget();
  const registrations = ctx.checkout.session.peek()?.registrations ?? [];
  const Registrations = registrations.length > 0 ? registry.registrations : undefined;
  const hide = ctx.settings.hideInitialPaymentForms && Registrations !== undefined;
  const showOthers = useMemo(() => signal(!hide), []);
  const label = payLabel(ctx);
  return (
    <>
      <Notice />
      {Registrations ? (
        <Registrations
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
          const Component = registry.get(m.kind)?.Component;
          if (Component === undefined) return null;
          const brands = 'brands' in m ? m.brands : [m.brand];
          const brand = 'brand' in m ? m.brand : (m.brands[0] ?? '');
          return (
            <Component key={'brands' in m ? m.kind : brand} brand={brand} brands={brands} payLabel={label} />
          );
        })}
      </Methods>
      {registry.overlays.map((Overlay, i) => (
        <Overlay key={i} />
      ))}
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
