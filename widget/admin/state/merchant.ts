/**
 * The merchant the pages are about: a merchant user's own, or the one an operator opened last
 * (kept for the navigation, so an operator can move between that merchant's pages).
 */
import { computed, signal } from '@preact/signals';
import { user } from './session';

const opened = signal<string | undefined>(undefined);

/** Remembered when an operator opens a merchant's page. */
export function openMerchant(merchantId: string): void {
  opened.value = merchantId;
}

export const currentMerchant = computed<string | undefined>(() => user.value?.merchantId ?? opened.value);
