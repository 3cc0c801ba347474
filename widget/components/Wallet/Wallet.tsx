/**
 * A wallet with a sheet (WALLETA, WALLETB, WALLETC): one button, `wpwl-button wpwl-button-brand
 * wpwl-brand-<BRAND>` named "Pay with Wallet A", with `wpwl-button-color-<buttonColor>` and
 * `data-placement` / `data-product-type` from the wallet block of wpwlOptions. A click makes sure a
 * checkout exists (fast checkout: createCheckout, then its session), opens the simulated wallet
 * sheet in the widget's modal, and pays with the token the sheet got once the page's
 * onPaymentAuthorized agrees (host.ts); the answer is handled as any submission's.
 */
import { useMemo } from 'preact/hooks';
import { brandName } from '../../core/brands';
import { useWidget } from '../../core/context';
import { fill } from '../../language';
import { SimpleForm } from '../internal/SimpleForm';
import { buttonLook, fastMoney, walletBlock, walletGroup, walletSend } from './host';

export function Wallet({ brand }: { brand: string }) {
  const ctx = useWidget();
  const { look, send } = useMemo(
    () => ({
      look: buttonLook(walletBlock(ctx.options, walletGroup(brand))),
      send: walletSend(ctx, brand),
    }),
    [],
  );
  return (
    <SimpleForm
      kind="wallet"
      brand={brand}
      payLabel={fill(ctx.strings.labels.payWith, { brand: brandName(brand) })}
      buttonClass={`wpwl-button-brand wpwl-brand-${brand}${look.cls}`}
      buttonAttrs={look.attrs}
      logo={brand}
      fields={[]}
      send={send}
      shown={() => fastMoney(ctx, walletGroup(brand))}
      opensModal
    />
  );
}
