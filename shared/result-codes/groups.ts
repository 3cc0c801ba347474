/**
 * OPP result-code groups as data: the published grouping regexes (facts §1.4, "regex (current)"
 * column), in EVALUATION order. A code belongs to the first group whose pattern matches it.
 *
 * Why this order. The published list (#1–#26) is order-sensitive because several regexes overlap:
 *   - #11 external risk `100\.38` also matches #25 risk management (100.380.101, 100.380.2xx/3xx)
 *     and #13 3-D Secure (100.380.4xx). Published order would put those codes under "external
 *     risk"; the facts (Appendix A) list them under #25 and #13. So #25 and #13 are evaluated
 *     BEFORE #11. This is the only departure from the published order.
 *   - #11 external risk `100\.370\.100|100\.370\.11` also matches #20 format `100\.[53][07]`:
 *     #11 stays before #20.
 *   - #4 pending-long `100\.400\.500` also matches #11 `100\.400`: #4 stays before #11.
 *   - #14 blacklist `100\.100\.701` also matches #23 account `100\.100`: #14 stays before #23.
 *   - #20 format `100\.900\.500` also matches #22 contact `100\.[97]00`: #20 stays before #22.
 * The remaining regexes are disjoint on the catalogue. result-codes.test.ts checks every
 * Appendix-A code lands in exactly the group Appendix A lists it under.
 *
 * Deviations from the published text: #10 soft decline has no published regex; `^(300\.100\.100)`
 * is used (the group's single known code). #23 has its unescaped dot fixed: `100\.2[01]`.
 * Codes matching no group (000.500.x, 700.600.x/700.601.x MAC retry blocks) are unclassified.
 */

export type GroupId =
  | 'success'
  | 'successReview'
  | 'pending'
  | 'pendingLong'
  | 'rejected3dsRisk'
  | 'rejectedBank'
  | 'rejectedCommunication'
  | 'rejectedSystem'
  | 'rejectedAsync'
  | 'softDecline'
  | 'rejectedExternalRisk'
  | 'rejectedAvs'
  | 'rejected3ds'
  | 'rejectedBlacklist'
  | 'rejectedRiskValidation'
  | 'rejectedConfiguration'
  | 'rejectedRegistration'
  | 'rejectedJob'
  | 'rejectedReference'
  | 'rejectedFormat'
  | 'rejectedAddress'
  | 'rejectedContact'
  | 'rejectedAccount'
  | 'rejectedAmount'
  | 'rejectedRiskManagement'
  | 'chargeback';

export interface ResultCodeGroup {
  readonly id: GroupId;
  readonly title: string;
  readonly pattern: RegExp;
}

/** Groups in evaluation order (see the comment at the top for why it differs from the published #). */
export const RESULT_CODE_GROUPS: readonly ResultCodeGroup[] = [
  // #1
  {
    id: 'success',
    title: 'Successfully processed',
    pattern: /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/,
  },
  // #2
  {
    id: 'successReview',
    title: 'Successfully processed, should be manually reviewed',
    pattern: /^(000\.400\.0[^3]|000\.400\.100)/,
  },
  // #3
  { id: 'pending', title: 'Pending (session open, changes within ~30 min)', pattern: /^(000\.200)/ },
  // #4 — before #11 (100.400.500)
  {
    id: 'pendingLong',
    title: 'Pending (may change after several days)',
    pattern: /^(800\.400\.5|100\.400\.500)/,
  },
  // #5
  {
    id: 'rejected3dsRisk',
    title: 'Rejected: 3DS and Intercard risk checks',
    pattern: /^(000\.400\.[1][0-9][1-9]|000\.400\.2)/,
  },
  // #6
  {
    id: 'rejectedBank',
    title: 'Rejected by external bank / acquirer',
    pattern: /^(800\.[17]00|800\.800\.[123])/,
  },
  // #7
  {
    id: 'rejectedCommunication',
    title: 'Rejected: communication errors',
    pattern: /^(900\.[1234]00|000\.400\.030)/,
  },
  // #8
  {
    id: 'rejectedSystem',
    title: 'Rejected: system errors',
    pattern: /^(800\.[56]|999\.|600\.1|800\.800\.[84])/,
  },
  // #9
  { id: 'rejectedAsync', title: 'Rejected: error in asynchronous workflow', pattern: /^(100\.39[765])/ },
  // #10 — no published regex; the group's only known code
  { id: 'softDecline', title: 'Soft decline', pattern: /^(300\.100\.100)/ },
  // #25 — moved up: before #11 (100.380.101, 100.380.2xx/3xx)
  {
    id: 'rejectedRiskManagement',
    title: 'Rejected: risk management',
    pattern: /^(100\.380\.[23]|100\.380\.101)/,
  },
  // #13 — moved up: before #11 (100.380.4xx)
  {
    id: 'rejected3ds',
    title: 'Rejected: 3-D Secure',
    pattern: /^(800\.400\.2|100\.380\.4|100\.390)/,
  },
  // #11 — after #4, #25, #13; before #20 (100.370.100, 100.370.11x)
  {
    id: 'rejectedExternalRisk',
    title: 'Rejected: external risk systems',
    pattern: /^(100\.400|100\.38|100\.370\.100|100\.370\.11)/,
  },
  // #12
  { id: 'rejectedAvs', title: 'Rejected: address validation (AVS)', pattern: /^(800\.400\.1)/ },
  // #14 — before #23 (100.100.701)
  {
    id: 'rejectedBlacklist',
    title: 'Rejected: blacklist validation',
    pattern: /^(100\.100\.701|800\.[32])/,
  },
  // #15
  { id: 'rejectedRiskValidation', title: 'Rejected: risk validation', pattern: /^(800\.1[123456]0)/ },
  // #16
  {
    id: 'rejectedConfiguration',
    title: 'Rejected: configuration validation',
    pattern: /^(600\.[23]|500\.[12]|800\.121)/,
  },
  // #17
  { id: 'rejectedRegistration', title: 'Rejected: registration validation', pattern: /^(100\.[13]50)/ },
  // #18
  { id: 'rejectedJob', title: 'Rejected: job validation', pattern: /^(100\.250|100\.360)/ },
  // #19
  { id: 'rejectedReference', title: 'Rejected: reference validation', pattern: /^(700\.[1345][05]0)/ },
  // #20 — before #22 (100.900.500)
  {
    id: 'rejectedFormat',
    title: 'Rejected: format validation',
    pattern: /^(200\.[123]|100\.[53][07]|800\.900|100\.[69]00\.500)/,
  },
  // #21
  { id: 'rejectedAddress', title: 'Rejected: address validation', pattern: /^(100\.800)/ },
  // #22
  { id: 'rejectedContact', title: 'Rejected: contact validation', pattern: /^(100\.[97]00)/ },
  // #23 — published as `100.2[01]` (unescaped dot); fixed
  { id: 'rejectedAccount', title: 'Rejected: account validation', pattern: /^(100\.100|100\.2[01])/ },
  // #24
  { id: 'rejectedAmount', title: 'Rejected: amount validation', pattern: /^(100\.55)/ },
  // #26 — 000.100.2xx: starts with 000. but is NOT a success
  { id: 'chargeback', title: 'Chargeback related', pattern: /^(000\.100\.2)/ },
];
