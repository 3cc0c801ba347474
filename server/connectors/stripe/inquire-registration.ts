/**
 * An uncertain registration at Stripe (issue 32 point 5): a registration is a customer and a
 * SetupIntent (payments.ts `register`), both carrying the gateway's id of the registration in
 * their metadata. Stripe's Search API searches customers (not SetupIntents): the customer found by
 * that id, then its SetupIntent carrying it, answered as `register` would have (its id there
 * `<customer>:<payment method>`). Neither there: 700.400.580 (the inquiry concludes so only after
 * a minute: Stripe's search may lag behind a write by about that long).
 */
import type Stripe from 'stripe';
import type { Registration } from '../../../shared/engine/core/model';
import { ResultCodes } from '../../../shared/result-codes';
import type { Answer } from '../kit/contract';
import { call } from './client';
import { GATEWAY_ID, registrationIdOf, searchQuery } from './request';
import { setupAnswer } from './response';

export const inquireRegistration = (stripe: Stripe, registration: Registration): Answer =>
  call('inquireRegistration', async () => {
    const customers = await stripe.customers.search({ query: searchQuery(registration.id) });
    for (const customer of customers.data) {
      const setups = await stripe.setupIntents.list({ customer: customer.id });
      const setup = setups.data.find((s) => s.metadata?.[GATEWAY_ID] === registration.id);
      if (setup === undefined) continue;
      const method =
        typeof setup.payment_method === 'string' ? setup.payment_method : setup.payment_method?.id;
      return setupAnswer(setup, method === undefined ? undefined : registrationIdOf(customer.id, method));
    }
    return { code: ResultCodes.TRANSACTION_NOT_FOUND };
  });
