/** The dashboard: the sign-in page until a session exists, then the page the location names. */
import type { FunctionComponent } from 'preact';
import { Layout } from './components/Layout';
import { Account, SecondFactorFirst } from './pages/Account';
import { Audit } from './pages/Audit';
import { ChannelPage } from './pages/Channel';
import { ClockPage } from './pages/Clock';
import { Home } from './pages/Home';
import { MerchantPage } from './pages/Merchant';
import { Merchants } from './pages/Merchants';
import { NotFound } from './pages/NotFound';
import { PaymentPage } from './pages/Payment';
import { Payments } from './pages/Payments';
import { Registrations } from './pages/Registrations';
import { Requests } from './pages/Requests';
import { Schedules } from './pages/Schedules';
import { Search } from './pages/Search';
import { Settlements } from './pages/Settlements';
import { SignIn } from './pages/SignIn';
import { Users } from './pages/Users';
import { Webhooks } from './pages/Webhooks';
import { match, route } from './router';
import { totpSetupRequired, user } from './state/session';

// biome-ignore lint/suspicious/noExplicitAny: each page takes its own path parameters
type AnyPage = FunctionComponent<any>;

/** Path patterns and their pages, the first that fits wins. */
const ROUTES: readonly (readonly [string, AnyPage])[] = [
  ['/', Home],
  ['/account', Account],
  ['/merchants', Merchants],
  ['/merchants/:merchantId', MerchantPage],
  ['/merchants/:merchantId/payments', Payments],
  ['/merchants/:merchantId/payments/:paymentId', PaymentPage],
  ['/merchants/:merchantId/webhooks', Webhooks],
  ['/merchants/:merchantId/settlements', Settlements],
  ['/merchants/:merchantId/schedules', Schedules],
  ['/merchants/:merchantId/registrations', Registrations],
  ['/merchants/:merchantId/requests', Requests],
  ['/search', Search],
  ['/channels/:entityId', ChannelPage],
  ['/users', Users],
  ['/audit', Audit],
  ['/clock', ClockPage],
];

export function App() {
  const me = user.value;
  if (me === undefined)
    return (
      <main id="main" class="loading">
        <p aria-live="polite">Loading…</p>
      </main>
    );
  if (me === null) return <SignIn />;
  // a second factor required and missing: nothing else until it is set up
  if (totpSetupRequired.value) return <SecondFactorFirst />;
  const { path } = route.value;
  for (const [pattern, Component] of ROUTES) {
    const params = match(pattern, path);
    if (params !== undefined)
      return (
        <Layout>
          <Component key={path} {...params} />
        </Layout>
      );
  }
  return (
    <Layout>
      <NotFound />
    </Layout>
  );
}
