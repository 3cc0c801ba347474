/**
 * A brand's logo: `img.wpwl-logo.wpwl-logo-<BRAND>` with the brand's name as its text alternative
 * (`decorative`, beside a text that already names the brand such as a "Pay with PayPal" button:
 * an empty one). The logos are small SVG files (`logos/<BRAND>.svg`: simple marks in each
 * brand's colours, drawn with a few SVG primitives, not the brands' artwork), which the build copies
 * to dist/widget/logos/ and the gateway serves as `/v1/widget/logos/<BRAND>.svg`: they cost
 * paymentWidgets.js nothing but this list, load after the form is drawn (never holding it up),
 * and are cached apart from the script. A brand without a file gets its name on a plain box.
 */
import { brandName } from '../../../core/brands';
import { useWidget } from '../../../core/context';

/** The brands with a file in logos/ (BrandLogo.test.ts holds the list equal to the folder). */
export const LOGOS: ReadonlySet<string> = new Set(
  (
    'ALIPAY AMEX BCMC BLIK BOLETO BRADESCO CARTEBANCAIRE DANKORT DINERS DIRECTDEBIT_SEPA DISCOVER EFT ' +
    'ELO EPS GIFTCARD GIROPAY HIPERCARD IDEAL INTERAC_ONLINE JCB KLARNA_INSTALLMENTS KLARNA_INVOICE ' +
    'KLARNA_PAYMENTS_PAYLATER MADA MAESTRO MASTER MIR PAYOLUTION_ELV PAYOLUTION_INS PAYOLUTION_INVOICE ' +
    'PAYPAL PAYSAFECARD POLI PREPAYMENT PRZELEWY RUPAY SEPA SOFORTUEBERWEISUNG STC_PAY TROY TRUSTLY ' +
    'TRUSTPAY_VA UNIONPAY VIRTUAL_ACCOUNT VISA VISAELECTRON WALLETA WALLETB WALLETC WALLETD_CONTINUE YANDEX'
  ).split(' '),
);

/** The address of a brand's logo file, below the gateway's `/v1/`. */
export const logoUrl = (apiBase: string, brand: string): string => `${apiBase}widget/logos/${brand}.svg`;

export function BrandLogo({ brand, decorative }: { readonly brand: string; readonly decorative?: boolean }) {
  const { apiBase } = useWidget();
  const name = brandName(brand);
  if (!LOGOS.has(brand)) {
    return decorative ? null : (
      <span class={`wpwl-logo wpwl-logo-text wpwl-logo-${brand}`} role="img" aria-label={name}>
        {name.split(' ')[0]}
      </span>
    );
  }
  return (
    <img
      class={`wpwl-logo wpwl-logo-${brand}`}
      src={logoUrl(apiBase, brand)}
      alt={decorative ? '' : name}
      width={40}
      height={26}
      decoding="async"
    />
  );
}

/** Fetches the logos of these brands ahead (the card form's, so a detected brand shows at once). */
export function preloadLogos(doc: Document, apiBase: string, brands: readonly string[]): void {
  for (const brand of brands) {
    if (LOGOS.has(brand)) doc.createElement('img').src = logoUrl(apiBase, brand);
  }
}
