/**
 * A brand whose flow happens elsewhere (online transfers, redirect wallets): one button that posts
 * the brand. The gateway's answer carries `redirect.url`, which the submit follows; the flows
 * themselves (and the inline wallet sheets of `inlineFlow`) come with the wallet issue.
 */

import { useWidget } from '../../core/context';
import { fill } from '../../language';
import { brandName } from '../Card/model';
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
      fields={[]}
    />
  );
}
