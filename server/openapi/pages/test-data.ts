/**
 * /docs/test-data, from the simulators' own tables (server/processors/simulator/): the 3-D Secure
 * test cards (ENROLLED_CARDS), the issuer's declines, the redirect methods, the wallets' cards,
 * and the triggers a request sends to reach every branch.
 */
import { describe } from '../../../shared/result-codes';
import {
  AuthenticationCodes,
  type CardProfile,
  CHALLENGE_CODE,
  ENROLLED_CARDS,
  failureCodeOf,
} from '../../processors/simulator/access-control-server';
import { DECLINED_CARDS } from '../../processors/simulator/acquirer';
import { REDIRECT_METHODS } from '../../processors/simulator/redirect-methods';
import { WALLET_CARDS } from '../../processors/simulator/wallets';
import { SAMPLE } from '../samples';
import { code, esc, layout, table } from './layout';

const SUCCESS = '000.100.110';
const withText = (c: string) => `${code(c)} ${esc(describe(c) ?? '')}`;

function outcome(profile: CardProfile): string {
  switch (profile.flow) {
    case 'not-participating':
      return `Not participating: ${withText(AuthenticationCodes.NOT_PARTICIPATING)}`;
    case 'challenge':
      return `Challenge on the issuer's page: code ${code(CHALLENGE_CODE)} authenticates (then ${code(SUCCESS)}); another code ${code(AuthenticationCodes.CHALLENGE_FAILED)}`;
    case 'frictionless':
      return profile.status === 'Y' || profile.status === 'A'
        ? `Frictionless, status ${code(profile.status)}: ${withText(SUCCESS)}`
        : `Frictionless, status ${code(profile.status)}: ${withText(failureCodeOf(profile.status))}`;
  }
}

const TRIGGERS: readonly (readonly [string, string])[] = [
  [
    'customParameters[forceResultCode]=<code>',
    'That code (a known code that is neither success nor pending); a result code as card.holder does the same.',
  ],
  ['customParameters[3DS2_enrolled]=true | false', 'Every card enrolled for 3-D Secure, or none.'],
  ['customParameters[3DS2_flow]=challenge | frictionless', 'That flow for an enrolled card.'],
  [
    'threeDSecure.challengeIndicator=04',
    'Enrols the card and forces a challenge; 03 and 09 challenge an enrolled card; 05, 07, 08 ask for an exemption.',
  ],
];

export function testDataPage(): string {
  const body = `
<p>Test channels are decided by the simulators: any valid card not listed here succeeds with ${withText(SUCCESS)}, e.g. ${code(SAMPLE.card['card.number'])} (VISA) with any future expiry and a three-digit CVV.</p>
<h2>Declined cards</h2>
${table(
  'Cards the simulated issuer declines',
  ['Card number', 'Result'],
  Object.entries(DECLINED_CARDS).map(([n, d]) => [code(n), withText(d.code)]),
)}
<h2>3-D Secure test cards</h2>
<p>On a channel with 3-D Secure on. Any other card is not enrolled and is paid without authentication.</p>
${table(
  '3-D Secure 2 test cards',
  ['Card number', 'Outcome'],
  Object.entries(ENROLLED_CARDS).map(([n, p]) => [code(n), outcome(p)]),
)}
<h2>Triggers</h2>
${table(
  'Parameters that steer the simulators',
  ['Parameter', 'Effect'],
  TRIGGERS.map(([p, e]) => [code(p), esc(e)]),
)}
<h2>Redirect methods</h2>
${table(
  'Simulated providers (shopperResultUrl required; pending 000.200.000 with redirect.url)',
  ['Brand', 'Provider', 'Decline code'],
  Object.entries(REDIRECT_METHODS).map(([b, m]) => [
    code(b),
    esc(`${m.title}: ${m.step}`),
    withText(m.declineCode),
  ]),
)}
<h2>Wallet test cards</h2>
${table(
  'Cards of the simulated wallet sheets (POST /simulators/wallets/token)',
  ['Card id', 'Label', 'Network', 'Type'],
  WALLET_CARDS.map((c) => [code(c.id), esc(c.label), esc(c.network), esc(c.type)]),
)}`;
  return layout('/docs/test-data', 'Test cards and triggers', body);
}
