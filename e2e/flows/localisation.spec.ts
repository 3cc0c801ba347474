/** Languages and the page's own labels (wpwlOptions.locale, wpwlOptions.labels). */
import { expect, test } from '../support/fixtures';

test('German labels with preset=de', async ({ shop, card }) => {
  await shop.open({ preset: 'de' });
  await card.ready();
  await expect(shop.widget).toHaveAttribute('lang', 'de');
  await expect(card.label('cardNumber')).toHaveText('Kartennummer');
  await expect(card.label('expiry')).toHaveText('Ablaufdatum');
  await expect(card.label('cardHolder')).toHaveText('Karteninhaber');
  // The amount in German notation: 92,00 €.
  await expect(card.payButton).toHaveText(/^92,00\s€ bezahlen$/);
  await expect(card.frameInput('cardNumber')).toHaveAttribute('aria-label', 'Kartennummer');
  await card.pay();
  await expect(card.hint('cardNumber')).toHaveText('Ungültige Kartennummer oder Marke');
});

test('the page overrides labels with preset=labels', async ({ shop, card }) => {
  await shop.open({ preset: 'labels' });
  await card.ready();
  await expect(card.label('cardHolder')).toHaveText('Name on card');
  await expect(card.payButton).toHaveText('Pay now');
  // The labels it does not override keep the language's.
  await expect(card.label('cardNumber')).toHaveText('Card number');
});
