/**
 * The banner's facts (GET /admin/v1/environment): test or live, and the gateway's clock when a
 * test clock runs. Read when the layout first shows and after the test clock moves (`reloadEnvironment`).
 */
import { signal } from '@preact/signals';
import { get } from '../api';
import type { EnvironmentView } from '../views';

export const environment = signal<EnvironmentView | undefined>(undefined);

export async function reloadEnvironment(): Promise<void> {
  try {
    environment.value = await get<EnvironmentView>('/environment');
  } catch {
    // the banner keeps what it knew; the page's own requests say why
  }
}
