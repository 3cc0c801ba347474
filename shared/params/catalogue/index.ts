/**
 * The parameter catalogue: every request parameter group of the spec's first document, once.
 * Each section mirrors one of the spec's tables; request kinds (../requests.ts) pick the
 * sections they accept, and schemas, error names, docs and echoes are derived from here.
 */
import type { Group } from '../nodes';
import { airline, cart } from './cart';
import { billing, customer, shipping } from './customer';
import { bankAccount, card, giftCard, tokenAccount, virtualAccount, wallets } from './instruments';
import {
  asynchronous,
  chargeback,
  query,
  recurringMigration,
  reporting,
  risk,
  scheduling,
  standingInstruction,
  tokenization,
} from './lifecycle';
import { corporate, merchant, recipient, sender } from './parties';
import { authentication, basicPayment, customParameters, forex } from './payment';
import { threeDSecure } from './three-d-secure';

export interface Section<G extends Group = Group> {
  readonly title: string;
  readonly group: G;
}

const section = <G extends Group>(title: string, group: G): Section<G> => ({ title, group });

export const SECTIONS = {
  basicPayment: section('Basic payment', basicPayment),
  forex: section('Forex', forex),
  authentication: section('Authentication parameters', authentication),
  card: section('Card account', card),
  wallets: section('Wallet payments', wallets),
  virtualAccount: section('Virtual account', virtualAccount),
  bankAccount: section('Bank account', bankAccount),
  tokenAccount: section('Token account', tokenAccount),
  customer: section('Customer', customer),
  billing: section('Billing address', billing),
  shipping: section('Shipping address', shipping),
  corporate: section('Corporate', corporate),
  sender: section('Sender', sender),
  recipient: section('Recipient', recipient),
  merchant: section('Merchant (acceptor)', merchant),
  cart: section('Cart items, cart payments and marketplace', cart),
  airline: section('Airline', airline),
  tokenization: section('Tokenization and registration parameters', tokenization),
  recurringMigration: section('Recurring migration (deprecated)', recurringMigration),
  threeDSecure: section('3-D Secure', threeDSecure),
  customParameters: section('Custom parameters', customParameters),
  asynchronous: section('Asynchronous payments', asynchronous),
  giftCard: section('Gift card', giftCard),
  risk: section('Risk', risk),
  scheduling: section('Scheduling (subscription jobs)', scheduling),
  standingInstruction: section('Card on file (standing instruction)', standingInstruction),
  chargeback: section('Chargeback', chargeback),
  query: section('Query', query),
  reporting: section('Reporting', reporting),
} as const;

export type SectionId = keyof typeof SECTIONS;
export { MAX_CART_ITEMS } from './cart';
export { INSTRUMENT_GROUPS, type InstrumentGroup, WALLETS } from './instruments';
