/** A virtual account brand: the shopper's account id (`virtualAccount.accountId`). */
import { fits } from '../../core/checks';
import { useWidget } from '../../core/context';
import { SimpleForm } from '../internal/SimpleForm';

export function VirtualAccount({ brand, payLabel }: { brand: string; payLabel: string }) {
  const { labels, errorMessages } = useWidget().strings;
  return (
    <SimpleForm
      kind="virtualAccount"
      brand={brand}
      before="onBeforeSubmitVirtualAccount"
      payLabel={payLabel}
      logo={brand}
      fields={[
        {
          key: 'accountId',
          parameter: 'virtualAccount.accountId',
          label: labels.accountId,
          autocomplete: 'username',
          maxLength: 100,
          valid: (v) => fits('virtualAccount.accountId', v.trim()),
          error: errorMessages.accountIdError,
        },
      ]}
    />
  );
}
