/**
 * The simulator guide's (docs/simulator.md) test-data table is the one rendered from the simulator's tables (through
 * the kit's constants), and those constants say what the simulator does.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cards, ibans, redirectMethods, threeDSecureCards, walletCards } from '../e2e/kit/cards';
import { renderSimulatorTable, withSimulatorTable } from '../e2e/kit/simulator-table';
import { ENROLLED_CARDS } from '../server/processors/simulator/access-control-server';
import { DECLINED_CARDS } from '../server/processors/simulator/acquirer';
import { REDIRECT_METHODS } from '../server/processors/simulator/redirect-methods';
import { WALLET_CARDS } from '../server/processors/simulator/wallets';
import { validateIban } from '../shared/brands';

describe('the simulator guide’s table', () => {
  it('is the table rendered from the simulator tables (run `npm run docs` after changing them)', async () => {
    const readme = await readFile(new URL('../docs/simulator.md', import.meta.url), 'utf8');
    expect(withSimulatorTable(readme)).toBe(readme);
    expect(readme).toContain(renderSimulatorTable());
  });

  it('names every enrolled card, declined card, wallet card and redirect method', () => {
    const table = renderSimulatorTable();
    for (const number of [...Object.keys(ENROLLED_CARDS), ...Object.keys(DECLINED_CARDS)])
      expect(table).toContain(`\`${number}\``);
    for (const card of WALLET_CARDS) expect(table).toContain(card.label);
    for (const brand of Object.keys(REDIRECT_METHODS)) expect(table).toContain(`redirectMethods.${brand}`);
  });
});

describe('the kit constants', () => {
  it('come from the simulator tables', () => {
    expect(DECLINED_CARDS[cards.declined.number]?.code).toBe(cards.declined.outcome);
    expect(ENROLLED_CARDS[cards.challenge.number]).toMatchObject({ flow: 'challenge' });
    expect(ENROLLED_CARDS[cards.frictionless.number]).toMatchObject({ flow: 'frictionless', status: 'Y' });
    expect(ENROLLED_CARDS[cards.success.number]).toBeUndefined();
    expect(threeDSecureCards.map((c) => c.number)).toEqual(Object.keys(ENROLLED_CARDS));
    expect(Object.keys(walletCards)).toEqual(WALLET_CARDS.map((c) => c.id));
    expect(redirectMethods.PAYPAL?.declined).toBe(REDIRECT_METHODS.PAYPAL?.declineCode);
    expect(cards.amex.cvv).toHaveLength(4);
  });

  it('IBANs: the success one passes its checksum, the other does not', () => {
    expect(validateIban(ibans.success).ok).toBe(true);
    expect(validateIban(ibans.invalidChecksum).ok).toBe(false);
  });
});
