/**
 * The corpus, one module per public source, and the least each source must keep: a source whose
 * entries shrink below its count fails the corpus test, so an entry is never dropped unnoticed.
 */
import type { Entry } from '../entry';
import { ACTIVEMERCHANT } from './activemerchant';
import { HYPERPAY_MAGENTO } from './hyperpay-magento';
import { HYPERSWITCH_ACI } from './hyperswitch-aci';
import { ISSUE_29 } from './issue-29';
import { OMNIPAY } from './omnipay';
import { OPERATOR_CHECKOUTS } from './operator-checkouts';
import { OPERATOR_SAMPLES } from './operator-samples';
import { PAYUNITY, PAYUNITY_PRIORS } from './payunity';
import { PRIORS as SHARED_PRIORS } from './priors';

export interface CorpusSource {
  /** Reported as the describe block. */
  readonly name: string;
  readonly entries: readonly Entry[];
  /** The fewest entries this source may have. */
  readonly atLeast: number;
}

export const CORPUS: readonly CorpusSource[] = [
  { name: 'issue 29 (the acceptance list)', entries: ISSUE_29, atLeast: 40 },
  { name: 'activemerchant (OPP gateway, remote test)', entries: ACTIVEMERCHANT, atLeast: 21 },
  { name: 'Hyperswitch (ACI connector)', entries: HYPERSWITCH_ACI, atLeast: 25 },
  { name: 'Omnipay (OPP and HyperPay drivers)', entries: OMNIPAY, atLeast: 22 },
  { name: 'PayUnity bundle', entries: PAYUNITY, atLeast: 9 },
  { name: 'operator samples (server-to-server)', entries: OPERATOR_SAMPLES, atLeast: 33 },
  { name: 'operator samples (COPYandPAY)', entries: OPERATOR_CHECKOUTS, atLeast: 13 },
  { name: 'operator plugin (HyperPay Magento 2)', entries: HYPERPAY_MAGENTO, atLeast: 8 },
];

/** What entries need made first (`setup.prior`); not entries of the corpus themselves. */
export const PRIORS: readonly Entry[] = [...SHARED_PRIORS, ...PAYUNITY_PRIORS];
