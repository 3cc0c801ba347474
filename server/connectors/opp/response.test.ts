import { describe, expect, it } from 'vitest';
import { oppAnswer } from './response';

describe('the opp response transformer', () => {
  it('passes on what the upstream says, but never its card number and never the names the kit writes', () => {
    const answer = oppAnswer({
      id: 'up-1',
      result: { code: '000.100.110', description: 'ok', avsResponse: 'F', cvvResponse: 'M' },
      card: {
        bin: '420000',
        last4Digits: '0000',
        number: '4200000000000000',
        type: 'CREDIT',
        binCountry: 'DE',
        issuer: { bank: 'Bank', phone: '+49 1', number: 'x' },
      },
      risk: { score: '42' },
      resultDetails: { ConnectorTxID1: 'acq-9', AcquirerResponse: '00', MerchantAdviceCode: '01' },
    });
    expect(answer).toEqual({
      code: '000.100.110',
      processorCode: '000.100.110',
      description: 'ok',
      id: 'up-1',
      result: { avsResponse: 'F', cvvResponse: 'M' },
      card: { type: 'CREDIT', binCountry: 'DE', issuer: { bank: 'Bank', phone: '+49 1' } },
      risk: { score: '42' },
      resultDetails: { MerchantAdviceCode: '01' },
    });
    expect(JSON.stringify(answer)).not.toContain('4200000000000000');
  });

  it('reads a pending answer’s redirect and 3-D Secure results; an unreadable redirect is left out', () => {
    const answer = oppAnswer({
      id: 'up-2',
      result: { code: '000.200.000' },
      redirect: {
        url: 'https://acquirer.example/acs',
        parameters: [
          { name: 'creq', value: 'abc' },
          { name: 7, value: 'x' },
        ],
      },
      threeDSecure: { eci: '05', authenticationStatus: 'Y', version: 2 },
    });
    expect(answer.redirect).toEqual({
      url: 'https://acquirer.example/acs',
      parameters: [{ name: 'creq', value: 'abc' }],
    });
    expect(answer.threeDSecure).toEqual({ eci: '05', authenticationStatus: 'Y' });
    expect(
      oppAnswer({ result: { code: '000.200.000' }, redirect: { url: 'javascript:alert(1)' } }).redirect,
    ).toBeUndefined();
  });

  it('reads an answer without a result code as 999.999.999, nothing else trusted', () => {
    expect(oppAnswer('garbage')).toEqual({ code: '999.999.999' });
    expect(oppAnswer({ result: { code: 7 }, id: 3, card: [] })).toEqual({ code: '999.999.999' });
  });
});
