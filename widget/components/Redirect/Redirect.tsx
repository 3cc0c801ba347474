/**
 * A brand whose flow happens on other pages (online bank transfer `SOFORTUEBERWEISUNG`, redirect
 * wallets `PAYPAL` and `WALLETD_CONTINUE`, buy now pay later `KLARNA_PAYMENTS_PAYLATER`, and any
 * other brand the registry does not give a form): one button that posts the brand. The gateway
 * answers `000.200.000` with `redirect: {url, parameters}`, which the submit follows
 * (internal/submit.ts, internal/redirect.ts): by default the whole page (or `paymentTarget`) goes
 * there and the gateway later sends the shopper to shopperResultUrl (the form's action); for a
 * brand listed in `inlineFlow` the pages open in the widget's modal instead, and the widget reads
 * the checkout's outcome when the gateway's last page says the flow has ended.
 */

import { brandName } from '../../core/brands';
import { useWidget } from '../../core/context';
import { fill } from '../../language';
import { SimpleForm } from '../internal/SimpleForm';

export function Redirect({ brand }: { brand: string }) {
  const { labels } = useWidget().strings;
  return (
    <SimpleForm
      kind="onlineTransfer"
      brand={brand}
      before="onBeforeSubmitOnlineTransfer"
      payLabel={fill(labels.payWith, { brand: brandName(brand) })}
      buttonClass={`wpwl-button-brand wpwl-brand-${brand}`}
      logo={brand}
      fields={[]}
    />
  );
}
