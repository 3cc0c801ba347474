/**
 * The account-data rules: which instrument groups a brand takes, and the one instrument a payment
 * sends.
 */

import { brandAccountData, brandInfo } from '../../brands/registry';
import type { FormTree } from '../../form/decode';
import { INSTRUMENT_GROUPS, type InstrumentGroup, WALLETS } from '../catalogue';
import type { ParameterError } from '../errors';
import { check, has, leafPaths, type Rule, str } from '../rules';

/** The instrument groups sent; a wallet's decrypted card counts as part of that wallet. */
function instrumentsOf(root: FormTree): InstrumentGroup[] {
  const sent = INSTRUMENT_GROUPS.filter((g) => has(root, g));
  const decryptedWallet = WALLETS.some((w) => has(root, `${w}.source`));
  return decryptedWallet ? sent.filter((g) => g !== 'card') : sent;
}

/** Which instrument groups a brand takes: its own, and for card brands also network tokens. */
function groupsFor(brand: string): readonly InstrumentGroup[] | undefined {
  const info = brandInfo(brand);
  if (info === undefined) return undefined;
  if (info.kind === 'card') return ['card', 'tokenAccount'];
  return info.group === undefined ? [] : [info.group];
}

/**
 * The parameters a known brand's method needs, each as an error, for a request that sends none
 * of its account data; none for a brand whose method needs none (redirects, PREPAYMENT) and for a
 * brand the gateway does not know (the engine refuses those with 600.200.100).
 */
export function accountDataNeeded(brand: string): ParameterError[] {
  return brandAccountData(brand).map(([name, or]) => ({
    name,
    value: null,
    message: `is required for paymentBrand ${brand}${or === undefined ? '' : `, or else ${or}`}`,
  }));
}

/**
 * One instrument per request, matching paymentBrand. `optionalBrand` is for the widget, where the
 * brand may be detected from the card number; `optionalInstrument` for requests whose instrument
 * may come from elsewhere (a stored registration, a referenced transaction).
 */
export function instrumentRule(options: { optionalBrand?: boolean; optionalInstrument?: boolean }): Rule {
  return check({
    paths: ['paymentBrand', ...INSTRUMENT_GROUPS],
    says: 'One payment instrument (card, bank account, …) per request, matching paymentBrand.',
    requiredness: true,
    apply(root, report) {
      const sent = instrumentsOf(root);
      const brand = str(root, 'paymentBrand');
      if (sent.length > 1) {
        for (const extra of leafPaths(root, sent[1]!)) {
          report(
            extra.name,
            `cannot be combined with ${sent[0]} data: send one payment instrument`,
            extra.value,
          );
        }
        return;
      }
      const allowed = brand === undefined ? undefined : groupsFor(brand);
      if (sent.length === 1) {
        const g = sent[0]!;
        if (brand === undefined) {
          if (!options.optionalBrand) report('paymentBrand', `is required with ${g} data`, null);
        } else if (allowed !== undefined && !allowed.includes(g)) {
          report('paymentBrand', `${brand} does not take ${g} data`);
        }
        return;
      }
      if (options.optionalInstrument || has(root, 'referenceUuid')) return;
      if (brand === undefined) {
        report(
          'paymentBrand',
          'is required, with the account data of the payment (card.*, bankAccount.* …)',
          null,
        );
      } else {
        // A known brand without its account data: every parameter its method needs is named
        // (a brand the gateway does not know is the engine's to refuse, with 600.200.100).
        for (const e of accountDataNeeded(brand)) report(e.name, e.message, null);
      }
    },
  });
}
