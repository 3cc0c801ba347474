/**
 * The test clock (operators, a gateway started with GATEWAY_TEST_CLOCK=on): where the gateway's
 * time is, moving it forward by a duration or to a time, and what ran on the way (expired
 * checkouts, pending payments, schedules, webhooks, settlement), over /admin/v1/clock and the
 * back office's clock procedure (server/backoffice/clock/moves.ts).
 */
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { SubmitButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { Page, Section } from '../components/Page';
import { onSubmit, useAction } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { reloadEnvironment } from '../state/environment';

interface ClockAnswer {
  readonly now: string;
  readonly frozen: boolean;
  /** After a move: how many of each kind ran. */
  readonly ran?: Readonly<Record<string, number>>;
}

/** The scheduler's kinds, in words. */
const KINDS: Readonly<Record<string, string>> = {
  checkoutExpiry: 'Checkouts expired',
  pendingPayments: 'Pending payments settled',
  shopperResultUrl: 'Shopper result notifications',
  schedules: 'Scheduled payments',
  webhooks: 'Webhook deliveries',
  settlement: 'Settlement runs',
};

function Ran({ ran }: { ran: Readonly<Record<string, number>> }) {
  return (
    <DataTable label="What ran during the move" columns={['Work', { label: 'Runs', number: true }]}>
      {Object.entries(ran).map(([kind, count]) => (
        <tr key={kind}>
          <td>{KINDS[kind] ?? kind}</td>
          <td class="number">{count}</td>
        </tr>
      ))}
    </DataTable>
  );
}

export function ClockPage() {
  const clock = useLoad(() => get<ClockAnswer>('/clock'), []);
  const [advance, setAdvance] = useState('');
  const [to, setTo] = useState('');
  const [ran, setRan] = useState<ClockAnswer['ran']>(undefined);
  const move = useAction();
  const moved = (body: Record<string, string>) =>
    move.run(async () => {
      const answer = await post<ClockAnswer>('/clock', body);
      setRan(answer.ran);
      clock.reload();
      void reloadEnvironment();
      return `The gateway's clock is now ${formatDate(answer.now)}.`;
    });
  return (
    <Page title="Test clock">
      <Loading data={clock.data} error={clock.error} />
      {clock.data && (
        <p class="summary">
          Gateway time: <time dateTime={clock.data.now}>{formatDate(clock.data.now)}</time>
          {clock.data.frozen ? ' (stopped between moves)' : ' (running)'}
        </p>
      )}
      <p>
        Payments, checkouts, schedules, webhooks and settlement follow this clock. Sign-in sessions and TOTP
        codes keep real time: moving the clock signs nobody out.
      </p>
      <Section title="Advance">
        <form
          class="inline-form"
          noValidate
          aria-label="Advance the clock"
          onSubmit={onSubmit(() => moved({ advance }))}
        >
          <Field
            label="By"
            value={advance}
            onValue={setAdvance}
            hint="A duration: 90s, 31m, 2h, 30d"
            error={move.field('advance')}
          />
          <SubmitButton action={move}>Advance</SubmitButton>
        </form>
      </Section>
      <Section title="Set">
        <form
          class="inline-form"
          noValidate
          aria-label="Set the clock"
          onSubmit={onSubmit(() => moved({ to }))}
        >
          <Field
            label="To"
            value={to}
            onValue={setTo}
            hint="An ISO time with its zone, later than now: 2026-12-24T09:00:00Z"
            error={move.field('to')}
          />
          <SubmitButton action={move}>Set</SubmitButton>
        </form>
      </Section>
      <ActionMessages action={move} />
      {ran !== undefined && (
        <Section title="What ran">
          <Ran ran={ran} />
        </Section>
      )}
    </Page>
  );
}
