/** The signed-in frame: a skip link, the header with the user and Sign out, the navigation, the page. */
import type { ComponentChildren } from 'preact';
import { href, route } from '../router';
import { environment } from '../state/environment';
import { currentMerchant } from '../state/merchant';
import { canChange, isOperator, signOut, user } from '../state/session';
import { Banner } from './Banner';

/** A link of the main navigation; current on its own page and on those below it (`below`). */
function NavLink({ path, below, children }: { path: string; below?: string; children: ComponentChildren }) {
  const here = route.value.path;
  const current = here === path || (below !== undefined && here.startsWith(below));
  return (
    <li>
      <a href={href(path)} aria-current={current ? 'page' : undefined}>
        {children}
      </a>
    </li>
  );
}

/** Sign out: in the header, and on the second factor's set-up a user must finish first. */
export const SignOut = () => (
  <button type="button" class="secondary" onClick={() => void signOut()}>
    Sign out
  </button>
);

export function Layout({ children }: { children: ComponentChildren }) {
  const me = user.value;
  const merchantId = currentMerchant.value;
  const m = merchantId === undefined ? undefined : `/merchants/${encodeURIComponent(merchantId)}`;
  return (
    <>
      <button type="button" class="skip" onClick={skipToMain}>
        Skip to content
      </button>
      <header class="top">
        <span class="brand">Gateway administration</span>
        <span class="who">
          {me?.username} <span class="role">({me?.role})</span>
        </span>
        <SignOut />
      </header>
      <Banner />
      <nav aria-label="Main">
        <ul>
          <NavLink path="/">Today</NavLink>
          {isOperator.value && <NavLink path="/merchants">Merchants</NavLink>}
          {m !== undefined && (
            <>
              <NavLink path={m} below="/channels/">
                {isOperator.value ? 'Merchant' : 'Merchant and channels'}
              </NavLink>
              <NavLink path={`${m}/payments`} below={`${m}/payments/`}>
                Payments
              </NavLink>
              <NavLink path={`${m}/webhooks`}>Webhooks</NavLink>
              <NavLink path={`${m}/settlements`}>Settlements</NavLink>
              <NavLink path={`${m}/schedules`}>Schedules</NavLink>
            </>
          )}
          <NavLink path="/search">Search</NavLink>
          {canChange.value && <NavLink path="/users">Users</NavLink>}
          {canChange.value && <NavLink path="/audit">Audit log</NavLink>}
          {isOperator.value && environment.value?.clock != null && (
            <NavLink path="/clock">Test clock</NavLink>
          )}
          <NavLink path="/account">Account</NavLink>
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** The hash is the router's: skipping moves the focus, not the location. */
function skipToMain(): void {
  document.getElementById('main')?.focus();
}
