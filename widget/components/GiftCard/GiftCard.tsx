/** A gift card (`GIFTCARD`): its number and PIN. */
import { fits } from '../../core/checks';
import { useWidget } from '../../core/context';
import { SimpleForm } from '../internal/SimpleForm';

export function GiftCard({ brand, payLabel }: { brand: string; payLabel: string }) {
  const { labels, errorMessages } = useWidget().strings;
  return (
    <SimpleForm
      kind="giftCard"
      brand={brand}
      before="onBeforeSubmitGiftCard"
      payLabel={payLabel}
      logo={brand}
      fields={[
        {
          key: 'giftCardNumber',
          parameter: 'giftCard.number',
          label: labels.giftCardNumber,
          autocomplete: 'off',
          inputMode: 'numeric',
          maxLength: 255,
          dir: 'ltr',
          send: (v) => v.replace(/\s/g, ''),
          valid: (v) => fits('giftCard.number', v.replace(/\s/g, '')),
          error: errorMessages.giftCardNumberError,
        },
        {
          key: 'giftCardPin',
          parameter: 'giftCard.pin',
          label: labels.giftCardPin,
          autocomplete: 'off',
          inputMode: 'numeric',
          type: 'password',
          maxLength: 255,
          dir: 'ltr',
          valid: (v) => fits('giftCard.pin', v.trim()),
          error: errorMessages.giftCardPinError,
        },
      ]}
    />
  );
}
