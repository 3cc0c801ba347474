import { describe, expect, it } from 'vitest';
import '../methods';
import { planMethods } from './brands';
import { type MethodDescriptor, Registry, registry } from './registry';

const Nothing = () => null;
const method = (over: Partial<MethodDescriptor> & Pick<MethodDescriptor, 'name'>): MethodDescriptor => ({
  kinds: ['redirect'],
  order: 50,
  Component: Nothing,
  ...over,
});

describe('the method registry', () => {
  it('holds every method folder’s descriptor, asked in their order', () => {
    expect(registry.methods.map((m) => m.name)).toEqual([
      'card',
      'directDebit',
      'virtualAccount',
      'giftCard',
      'wallet',
      'onlineTransfer',
    ]);
    expect(registry.registrations).toBeDefined();
    expect(registry.overlays).toHaveLength(1);
  });

  it('gives a brand to the first method (lowest order) whose kinds and test accept it', () => {
    const own = new Registry();
    own.add(method({ name: 'fallback', kinds: ['redirect', 'bank'], order: 100 }));
    own.add(method({ name: 'paypal', accepts: (b) => b === 'PAYPAL', order: 10 }));
    expect(own.methodFor('PAYPAL')?.name).toBe('paypal');
    expect(own.methodFor('SOFORTUEBERWEISUNG')?.name).toBe('fallback');
    expect(own.methodFor('VISA')).toBeUndefined();
    expect(own.methodFor('FOOBAR')).toBeUndefined();
  });

  it('plans a grouped method once, where its first brand is listed; others a form per brand', () => {
    const own = new Registry();
    own.add(method({ name: 'cards', kinds: ['card'], grouped: true, order: 1 }));
    own.add(method({ name: 'redirect' }));
    expect(own.plan(['PAYPAL', 'VISA', 'SOFORTUEBERWEISUNG', 'MASTER'])).toEqual([
      { kind: 'redirect', brand: 'PAYPAL' },
      { kind: 'cards', brands: ['VISA', 'MASTER'] },
      { kind: 'redirect', brand: 'SOFORTUEBERWEISUNG' },
    ]);
    expect(own.plan(['PAYPAL', 'VISA'], ['VISA'])).toEqual([{ kind: 'cards', brands: ['VISA'] }]);
    expect(planMethods(['PAYPAL'], undefined, own)).toEqual([{ kind: 'redirect', brand: 'PAYPAL' }]);
  });

  it('replaces a method registered again under its name', () => {
    const own = new Registry();
    own.add(method({ name: 'redirect', order: 5 }));
    own.add(method({ name: 'redirect', kinds: ['bank'], order: 6 }));
    expect(own.methods).toHaveLength(1);
    expect(own.get('redirect')?.kinds).toEqual(['bank']);
  });
});
