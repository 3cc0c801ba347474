/**
 * The account-data rules: which instrument groups a brand takes, and the one instrument a payment
 * sends.
 */

import { brandAccountData, brandInfo, brandMethod } from '../../brands/registry';
import type { FormTree } from '../../form/decode';
import { INSTRUMENT_GROUPS, type InstrumentGroup, WALLETS } from '../catalogue';
import { BANK_ACCOUNT_RULES, BANK_HINTS } from '../catalogue/instruments';
import type { ParameterError } from '../errors';
import { at, check, has, leafPaths, type Report, type Rule, str } from '../rules';

/** The instrument groups sent; a wallet's decrypted card counts as part of that wallet. */
function instrumentsOf(root: FormTree): InstrumentGroup[] {
  const sent = INSTRUMENT_GROUPS.filter((g) => has(root, g));
  const decryptedWallet = WALLETS.some((w) => has(root, `${w}.source`));
  return decryptedWallet ? sent.filter((g) => g !== 'card') : sent;
}

/**
 * Whether a brand takes bankAccount only as hints for its provider: the online transfers (OT),
 * whose shopper picks the bank at the provider (decisions, "Fidelity to the family").
 */
export const takesBankHints = (brand: string | undefined): boolean =>
  brand !== undefined && brandMethod(brand) === 'OT';

/** Which instrument groups a brand takes: its own, and for card brands also network tokens. */
function groupsFor(brand: string): readonly InstrumentGroup[] | undefined {
  const info = brandInfo(brand);
  if (info === undefined) return undefined;
  if (info.kind === 'card') return ['card', 'tokenAccount'];
  if (takesBankHints(brand)) return ['bankAccount'];
  return info.group === undefined ? [] : [info.group];
}

/**
 * The bank account sent: the account itself (holder, number or iban, bankCode or bic), or for an
 * online transfer only the hints, none of them required; any other field is not a hint.
 */
function bankAccountNeeds(root: FormTree, brand: string | undefined, report: Report): void {
  const account = at(root, 'bankAccount');
  if (account === undefined || typeof account === 'string' || Array.isArray(account)) return;
  if (takesBankHints(brand)) {
    const hints: readonly string[] = BANK_HINTS;
    for (const name of Object.keys(account)) {
      if (hints.includes(name)) continue;
      for (const sent of leafPaths(root, `bankAccount.${name}`))
        report(
          sent.name,
          `is not taken by paymentBrand ${brand}, which takes only ${BANK_HINTS.map((h) => `bankAccount.${h}`).join(', ')}`,
          sent.value,
        );
    }
    return;
  }
  const inAccount: Report = (path, message, value) => report(`bankAccount.${path}`, message, value);
  for (const rule of BANK_ACCOUNT_RULES) rule.apply(account, inAccount);
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
        if (g === 'bankAccount' && (allowed === undefined || allowed.includes(g)))
          bankAccountNeeds(root, brand, report);
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
