/**
 * Always on screen: which environment this is (test money or live money) and, when a test clock
 * runs, the gateway's time, which is the time base of every date the dashboard shows (format.ts,
 * UTC, labelled).
 */
import { useEffect } from 'preact/hooks';
import { formatDate } from '../format';
import { href } from '../router';
import { environment, reloadEnvironment } from '../state/environment';
import { isOperator } from '../state/session';

export function Banner() {
  useEffect(() => {
    if (environment.value === undefined) void reloadEnvironment();
  }, []);
  const facts = environment.value;
  if (facts === undefined) return null;
  const live = facts.environment === 'live';
  return (
    <section class={`banner ${live ? 'banner-live' : 'banner-test'}`} aria-label="Environment">
      <strong>{live ? 'Live environment: real money' : 'Test environment: no real money moves'}</strong>
      {facts.clock !== null && (
        <span>
          Gateway clock (test clock{facts.clock.frozen ? ', stopped' : ''}):{' '}
          <time dateTime={facts.clock.now}>{formatDate(facts.clock.now)}</time>
          {isOperator.value && (
            <>
              {' '}
              ·{' '}
              <a class="banner-link" href={href('/clock')}>
                Move the clock
              </a>
            </>
          )}
        </span>
      )}
    </section>
  );
}
