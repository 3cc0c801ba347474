/**
 * Voucher brands (BOLETO, BRADESCO: prepayment by a voucher paid at a bank, a lottery agency or in
 * online banking) in test mode INTERNAL: the payment is pending with a redirect to the voucher
 * (`redirect.url`, where the shopper sees and pays it), and the API answer itself carries what the
 * merchant shows or sends the shopper: the voucher's reference (a boleto's typeable line) and its
 * due date, in `resultDetails` (the spec's place for a provider's name/value enrichment). The read
 * and the final answer keep them; the voucher page shows the same reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueBrands, PAYMENT_BRANDS } from '../../../shared/brands';
import { fakeClock } from '../../test-kit/clock';
import { type TestGateway, testGateway, WORKERS_STOPPED } from '../../test-kit/gateway';

/** The catalogue's voucher brands: prepayment (PP) paid through a provider's page (a redirect). */
const VOUCHER_BRANDS = catalogueBrands().filter(
  (b) => PAYMENT_BRANDS[b].method === 'PP' && PAYMENT_BRANDS[b].flow === 'redirect',
);
/** A boleto's typeable line: 47 digits in its groups. */
const TYPEABLE_LINE = /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/;

describe('voucher brands answer their voucher (HTTP, test mode INTERNAL)', () => {
  const clock = fakeClock('2026-11-21T23:50:00.000Z');
  let gw: TestGateway;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    gw = await testGateway({ clock, ...WORKERS_STOPPED });
    // the demo channel has a bank account: a voucher is still not paid to it
    ({ entityId, accessToken: token } = gw.demo!);
  });
  afterAll(() => gw?.cleanup());

  const pay = (brand: string) =>
    gw.post(
      '/v1/payments',
      {
        entityId,
        amount: '120.00',
        currency: 'BRL',
        paymentType: 'DB',
        paymentBrand: brand,
        shopperResultUrl: 'https://shop.example/return',
      },
      { token },
    );
  const read = (id: string) => gw.get(`/v1/payments/${id}`, { entityId }, { token });

  it('are BOLETO and BRADESCO', () => {
    expect(VOUCHER_BRANDS).toEqual(['BOLETO', 'BRADESCO']);
  });

  it.each(VOUCHER_BRANDS)(
    '%s: the voucher’s reference and due date are in the answer and the read',
    async (brand) => {
      const res = await pay(brand);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.200.000');
      expect(res.body.redirect.url).toEqual(expect.stringContaining('/simulators/redirect'));
      const { VoucherReference, VoucherDueDate } = res.body.resultDetails ?? {};
      expect(VoucherReference).toMatch(TYPEABLE_LINE);
      // due when the payment's 30 minutes run out: 00:20 the next day (UTC)
      expect(VoucherDueDate).toBe('2026-11-22');
      // not paid to the merchant's account: no merchant.bankAccount
      expect(res.body.merchant).toBeUndefined();

      const again = await read(res.body.id);
      expect(again.body.resultDetails).toMatchObject({ VoucherReference, VoucherDueDate });

      // the voucher page shows the shopper the same reference
      const session = res.body.redirect.parameters.find((p: { name: string }) => p.name === 'session').value;
      const voucher = await gw.get('/simulators/redirect', { session });
      expect(voucher.text).toContain(`<dd>${VoucherReference}</dd>`);

      // paid: the final answer keeps the voucher beside the provider's answer
      const paid = await gw.post('/simulators/redirect/answer', {
        session,
        action: 'approve',
        returnMode: 'message',
      });
      expect(paid.status).toBe(200);
      const final = await read(res.body.id);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.resultDetails).toMatchObject({
        VoucherReference,
        VoucherDueDate,
        AcquirerResponse: 'APPROVED',
      });
    },
  );

  it('other redirect brands answer no voucher', async () => {
    const res = await pay('PAYPAL');
    expect(res.body.result.code).toBe('000.200.000');
    expect(res.body.resultDetails?.VoucherReference).toBeUndefined();
  });
});
