/**
 * SEPA direct debit (`DIRECTDEBIT_SEPA`, `SEPA`): account holder and IBAN, checked with the
 * gateway's own IBAN rules (country length and mod-97); bankAccount.country and
 * bankAccount.bankCode (the spec wants a bank code or a BIC with every account) come from the IBAN.
 */
import { ibanBankCode, normalizeIban, validateIban } from '../../../shared/brands';
import { fits } from '../../core/checks';
import { useWidget } from '../../core/context';
import { SimpleForm } from '../internal/SimpleForm';

/** `de89370400440532013000` → `DE89 3704 0044 0532 0130 00` */
export const formatIban = (value: string): string =>
  value
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 34)
    .replace(/(.{4})(?=.)/g, '$1 ');

export function DirectDebit({ brand, payLabel }: { brand: string; payLabel: string }) {
  const { strings } = useWidget();
  const { labels, errorMessages } = strings;
  return (
    <SimpleForm
      kind="directDebit"
      brand={brand}
      before="onBeforeSubmitDirectDebit"
      payLabel={payLabel}
      logo={brand}
      fields={[
        {
          key: 'accountHolder',
          parameter: 'bankAccount.holder',
          label: labels.accountHolder,
          autocomplete: 'name',
          maxLength: 128,
          valid: (v) => fits('bankAccount.holder', v.trim()),
          error: errorMessages.accountHolderError,
        },
        {
          key: 'iban',
          parameter: 'bankAccount.iban',
          label: labels.iban,
          placeholder: 'DE00 0000 0000 0000 0000 00',
          autocomplete: 'off',
          maxLength: 42,
          dir: 'ltr',
          display: formatIban,
          send: normalizeIban,
          valid: (v) => validateIban(v).ok,
          error: errorMessages.ibanError,
        },
      ]}
      extra={(values) => {
        const iban = values['bankAccount.iban'] ?? '';
        const bankCode = ibanBankCode(iban);
        return [
          ['bankAccount.country', normalizeIban(iban).slice(0, 2)],
          ...(bankCode === undefined ? [] : [['bankAccount.bankCode', bankCode] as const]),
        ];
      }}
      note={<p class="wpwl-mandate">{labels.directDebitMandate}</p>}
    />
  );
}
