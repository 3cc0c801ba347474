/**
 * The simulator pages a pending payment's redirect points to (test mode INTERNAL): the 3-D
 * Secure challenge of the simulated issuer and the redirect methods' provider pages; and the
 * access control server's endpoint for an app's 3-D Secure SDK (the app-based challenge). The
 * shopper arrives by the redirect (a POST of redirect.parameters, or a GET with them in the
 * query), answers, and is sent back: to the shopperResultUrl with `id` and `resourcePath`
 * (303), or, when the widget showed the page in its own frame (`returnMode=message`), to a page
 * that tells the widget. The session id in the parameters is the only credential: 128 random
 * bits, good for one payment; these pages stay open in production too, since a shopper's browser
 * posts them.
 *
 * The simulated wallets' token endpoint serves the wallet sheet of a checkout (its id is the
 * credential) and merchants testing server-to-server with an entityId: in production
 * (NODE_ENV=production) the latter needs the merchant's credentials.
 */
import type { Context, Hono } from 'hono';
import type { PaymentSession } from '../../../../shared/engine/core/model';
import {
  finishPending,
  pageFacts,
  SimulatorPaths,
  sessionIdOfAcsTransaction,
  shopperReturnOf,
  type Verdict,
} from '../../../../shared/engine/steps/asynchronous';
import { describe, ResultCodes } from '../../../../shared/result-codes';
import {
  CHALLENGE_CODE,
  newCryptogram,
  PROTOCOL_VERSION,
} from '../../../processors/simulator/access-control-server';
import { redirectMethodOf } from '../../../processors/simulator/redirect-methods';
import {
  isWalletGroup,
  WALLET_CARDS,
  WALLET_GROUPS,
  walletCard,
} from '../../../processors/simulator/wallets';
import type { GatewayEnv, RouteDeps } from '../../context';
import type { GatewayMiddleware } from '../../middleware';
import { resolveChannel } from '../../middleware/channel';
import { credentialsOf } from '../../middleware/credentials';
import { NO_STORE, shopperPage, shopperParameters } from '../shopper-page';
import { challengePage, messagePage, RETURN_SCRIPT, redirectPage, returnPage, SIMULATOR_CSS } from './pages';

/**
 * The pages load only their own style and script; they may be framed by any shop (the widget's
 * modal), and their forms go to the gateway itself and, by redirect, to the shop.
 */

const SESSION_ID = /^[0-9a-f]{32}$/;

export function simulatorRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const unknown = (c: Context) =>
    shopperPage(
      c,
      404,
      messagePage(
        'Unknown payment session',
        'This link is not valid, or its payment has ended. Return to the shop and start again.',
      ),
    );

  /** Past its 30 minutes: the page does not offer it any more (finishing it times it out). */
  const expired = (session: PaymentSession) => deps.clock.now() >= session.expiresAt;

  async function openSession(id: string | undefined, kind: PaymentSession['kind']) {
    if (id === undefined || !SESSION_ID.test(id)) return undefined;
    const session = await deps.store.getPaymentSession(id);
    return session?.kind === kind ? session : undefined;
  }

  /** After the answer (or for a session that had ended): back to the shop, or to the widget. */
  async function leave(
    c: Context,
    session: PaymentSession,
    returnMode: string | undefined,
    verdict?: Verdict,
  ) {
    const ended = verdict === undefined ? undefined : await finishPending(deps, session.id, verdict);
    const payment =
      ended !== undefined && ended.kind !== 'not-found'
        ? ended.payment
        : await deps.store.getPayment(session.merchantId, session.paymentId);
    const code = payment?.resultCode ?? ResultCodes.PENDING;
    const description = describe(code) ?? '';
    if (returnMode === 'message') return shopperPage(c, 200, returnPage(description));
    const target = shopperReturnOf(session);
    if (target === undefined) return shopperPage(c, 200, messagePage('Payment processed', description));
    return c.redirect(target, 303);
  }

  assetRoutes(app);
  walletRoutes(app, deps, mw);

  // The issuer's challenge (redirect.parameters: creq, threeDSSessionData).
  app.on(['GET', 'POST'], SimulatorPaths.challenge, async (c) => {
    const p = await shopperParameters(c);
    const session = await openSession(p.threeDSSessionData, 'challenge');
    if (session === undefined) return unknown(c);
    if (session.finishedAt !== null || expired(session)) return leave(c, session, p.returnMode, 'timeout');
    const payment = await deps.store.getPayment(session.merchantId, session.paymentId);
    if (payment === undefined) return unknown(c);
    const merchant = (await deps.store.getMerchant(session.merchantId))?.name;
    const facts = { ...pageFacts(payment), ...(merchant === undefined ? {} : { merchant }) };
    return shopperPage(c, 200, challengePage(session, facts, p.returnMode), session.returnUrl);
  });

  app.post(`${SimulatorPaths.challenge}/answer`, async (c) => {
    const p = await shopperParameters(c);
    const session = await openSession(p.threeDSSessionData, 'challenge');
    if (session === undefined) return unknown(c);
    const verdict: Verdict =
      p.action === 'cancel'
        ? 'cancel'
        : p.action === 'submit' && p.otp?.trim() === CHALLENGE_CODE
          ? 'approve'
          : 'decline';
    return leave(c, session, p.returnMode, verdict);
  });

  appChallengeRoute(app, deps);
  // A redirect method's provider (redirect.parameters: session).
  app.on(['GET', 'POST'], SimulatorPaths.redirect, async (c) => {
    const p = await shopperParameters(c);
    const session = await openSession(p.session, 'redirect');
    if (session === undefined) return unknown(c);
    if (session.finishedAt !== null || expired(session)) return leave(c, session, p.returnMode, 'timeout');
    const payment = await deps.store.getPayment(session.merchantId, session.paymentId);
    const method = redirectMethodOf(payment?.paymentBrand);
    if (payment === undefined || method === undefined) return unknown(c);
    return shopperPage(
      c,
      200,
      redirectPage(session, method, pageFacts(payment), p.returnMode),
      session.returnUrl,
    );
  });

  app.post(`${SimulatorPaths.redirect}/answer`, async (c) => {
    const p = await shopperParameters(c);
    const session = await openSession(p.session, 'redirect');
    if (session === undefined) return unknown(c);
    const verdict: Verdict =
      p.action === 'approve' ? 'approve' : p.action === 'decline' ? 'decline' : 'cancel';
    return leave(c, session, p.returnMode, verdict);
  });
}

/** The pages' own style and script. */
function assetRoutes(app: Hono<GatewayEnv>): void {
  app.get('/simulators/simulator.css', (c) =>
    c.body(SIMULATOR_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'max-age=3600',
    }),
  );
  app.get('/simulators/return.js', (c) =>
    c.body(RETURN_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'max-age=3600',
    }),
  );
}

/**
 * The access control server's endpoint for an app's 3-D Secure SDK (the app-based challenge).
 */
function appChallengeRoute(app: Hono<GatewayEnv>, deps: RouteDeps): void {
  // The app's 3-D Secure SDK exchanges the challenge with the issuer's ACS itself, no browser:
  // a CReq naming the ACS transaction (acsTransID) with the cardholder's entry (challengeDataEntry)
  // or a cancel (challengeCancel); the ACS answers a CRes with the final transStatus.
  app.post(SimulatorPaths.appChallenge, async (c) => {
    const p = await shopperParameters(c);
    const acsTransID = p.acsTransID ?? '';
    const found = await deps.store.getPaymentSession(sessionIdOfAcsTransaction(acsTransID));
    const session = found?.kind === 'app' ? found : undefined;
    if (session === undefined) {
      return c.json(
        {
          messageType: 'Erro',
          messageVersion: PROTOCOL_VERSION,
          errorCode: '305',
          errorComponent: 'A',
          errorDescription: 'acsTransID names no challenge of this access control server',
        },
        404,
        { 'Cache-Control': NO_STORE },
      );
    }
    const verdict: Verdict =
      p.challengeCancel !== undefined
        ? 'cancel'
        : p.challengeDataEntry?.trim() === CHALLENGE_CODE
          ? 'approve'
          : 'decline';
    const ended = await finishPending(deps, session.id, verdict);
    const payment = ended.kind === 'not-found' ? undefined : ended.payment;
    const authenticated = (payment?.details.threeDSecure as { authenticationStatus?: string } | undefined)
      ?.authenticationStatus;
    return c.json(
      {
        messageType: 'CRes',
        messageVersion: PROTOCOL_VERSION,
        acsTransID,
        // a cancel or a timeout authenticated nobody
        transStatus: authenticated === 'Y' || authenticated === 'A' ? authenticated : 'N',
        challengeCompletionInd: 'Y',
      },
      200,
      { 'Cache-Control': NO_STORE },
    );
  });
}

/**
 * The simulated wallets' sheet (widget/frames/wallet-sheet.*) lists these cards and asks for a
 * token; merchants testing server-to-server ask the same way, with their entityId.
 */
function walletRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  app.get('/simulators/wallets/cards', (c) =>
    c.json(
      { cards: WALLET_CARDS.map(({ id, label, network, type }) => ({ id, label, network, type })) },
      200,
      {
        'Cache-Control': NO_STORE,
      },
    ),
  );

  app.post('/simulators/wallets/token', async (c) => {
    const p = await shopperParameters(c);
    const refuse = (error: string) => c.json({ error }, 400, { 'Cache-Control': NO_STORE });
    const wallet = p.wallet ?? '';
    if (!isWalletGroup(wallet)) return refuse(`wallet must be one of ${WALLET_GROUPS.join(', ')}`);
    const card = walletCard(p.card ?? '');
    if (card === undefined) return refuse(`card must be one of ${WALLET_CARDS.map((k) => k.id).join(', ')}`);
    const credentials = credentialsOf(c.req.header('authorization'), () => new URLSearchParams(p));
    if (p.checkoutId === undefined && (credentials.kind !== 'missing' || deps.production)) {
      // Without a checkout the entity is named directly: the merchant's credentials in production.
      if (credentials.kind === 'missing')
        return c.json(
          {
            error:
              "entityId needs the merchant's Authorization: Bearer <token> in production; or send checkoutId",
          },
          401,
          { 'Cache-Control': NO_STORE },
        );
      const token = await mw.authenticate(c, credentials);
      if (token instanceof Response) return token;
      const allowed = await resolveChannel(deps.store, token, p.entityId, deps.environment);
      if (!allowed.ok) return c.json({ error: allowed.description }, 403, { 'Cache-Control': NO_STORE });
    }
    const channelId = await channelOfTokenRequest(p);
    if (typeof channelId !== 'string') return refuse(channelId.error);
    if (deps.wallets === undefined) return refuse('this gateway has no wallet keys');
    const now = deps.clock.now();
    const paymentToken = deps.wallets.issue(
      wallet,
      channelId,
      {
        number: card.number,
        // A wallet's card is a live one: it expires in a few years.
        expiryMonth: '12',
        expiryYear: String(now.getUTCFullYear() + 3),
        cryptogram: newCryptogram(),
        eci: card.eci,
        network: card.network,
        type: card.type,
      },
      now,
    );
    return c.json(
      { paymentToken, cardNetwork: card.network, cardType: card.type, last4: card.number.slice(-4) },
      200,
      {
        'Cache-Control': NO_STORE,
      },
    );
  });

  /** The test channel a token is issued for: the checkout's, or the entityId given. */
  async function channelOfTokenRequest(p: Record<string, string>): Promise<string | { error: string }> {
    let channelId = p.entityId;
    if (p.checkoutId !== undefined) {
      const checkout = await deps.store.getCheckout(p.checkoutId);
      if (checkout === undefined || deps.clock.now() >= checkout.expiresAt) {
        return { error: 'checkoutId names no open checkout' };
      }
      channelId = checkout.channelId;
    }
    if (channelId === undefined) return { error: 'checkoutId or entityId is required' };
    const channel = await deps.store.getChannel(channelId);
    if (channel === undefined) return { error: 'entityId names no channel' };
    if (channel.mode !== 'TEST') return { error: 'the simulated wallets serve test channels only' };
    return channel.id;
  }
}
