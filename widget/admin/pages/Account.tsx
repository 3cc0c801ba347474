/**
 * The signed-in user's own account: change the password, set up (or replace) a TOTP authenticator;
 * and the set-up a user must finish first when the gateway requires a second factor.
 */
import { useState } from 'preact/hooks';
import { SubmitButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Field } from '../components/Field';
import { SignOut } from '../components/Layout';
import { Page, Section } from '../components/Page';
import { QrCode } from '../components/QrCode';
import { onSubmit, useAction } from '../components/useAction';
import { formatDate } from '../format';
import { changePassword, confirmTotp, startTotp, user } from '../state/session';

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      return 'Your password was changed.';
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Field
        label="Current password"
        type="password"
        value={current}
        onValue={setCurrent}
        autoComplete="current-password"
        error={action.field('currentPassword')}
      />
      <Field
        label="New password"
        type="password"
        value={next}
        onValue={setNext}
        autoComplete="new-password"
        hint="At least 12 characters"
        error={action.field('newPassword')}
      />
      <ActionMessages action={action} />
      <SubmitButton action={action}>Change password</SubmitButton>
    </form>
  );
}

/** Asks for the current password (and, replacing an authenticator, its code) before a new key. */
function TotpStart({ onKey }: { onKey: (key: { secret: string; otpauthUrl: string }) => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const replacing = user.value?.totpEnabled === true;
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      onKey(await startTotp(password, replacing ? code.trim() : undefined));
      return undefined;
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <p>
        {replacing
          ? 'To use another authenticator app, confirm it is you: your password and a code from the app you use now.'
          : 'Add a second step to signing in: a code from an authenticator app.'}
      </p>
      <Field
        label="Current password"
        type="password"
        value={password}
        onValue={setPassword}
        autoComplete="current-password"
        error={action.field('password')}
      />
      {replacing && (
        <Field
          label="Code from the app you use now"
          value={code}
          onValue={setCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          error={action.field('code')}
        />
      )}
      <ActionMessages action={action} />
      <SubmitButton action={action}>
        {replacing ? 'Replace the authenticator' : 'Set up an authenticator'}
      </SubmitButton>
    </form>
  );
}

/** The set-up: a new key, active once a code from it is confirmed. */
export function TotpSetup() {
  const [secret, setSecret] = useState<{ secret: string; otpauthUrl: string } | undefined>(undefined);
  const [confirmed, setConfirmed] = useState(false);
  const [code, setCode] = useState('');
  const action = useAction();
  // a status: announced when the confirmation turns the set-up into this
  if (confirmed || (secret === undefined && user.value?.totpEnabled))
    return (
      <>
        <p role="status">An authenticator app is set up: sign-in asks for its code.</p>
        {!confirmed && <TotpStart onKey={setSecret} />}
      </>
    );
  if (secret === undefined) return <TotpStart onKey={setSecret} />;
  const submit = onSubmit(() =>
    action.run(async () => {
      await confirmTotp(code.trim());
      setConfirmed(true);
      return 'The authenticator is set up.';
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <p>
        Scan the QR code or add this key to your authenticator app (or open the{' '}
        <a href={secret.otpauthUrl}>otpauth link</a> on this device), then enter the code it shows.
      </p>
      <div class="qr">
        <QrCode text={secret.otpauthUrl} label="QR code of the authenticator key: scan it with your app" />
        <div>
          <p>
            Key: <code class="secret">{secret.secret}</code>
          </p>
          <p>
            Or copy the otpauth URI: <code class="url">{secret.otpauthUrl}</code>
          </p>
        </div>
      </div>
      <Field
        label="Code from the app"
        value={code}
        onValue={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        error={action.field('code')}
      />
      <ActionMessages action={action} />
      <SubmitButton action={action}>Confirm</SubmitButton>
    </form>
  );
}

/** What a user without a second factor sees first when the gateway requires one. */
export function SecondFactorFirst() {
  return (
    <main id="main" class="sign-in">
      <Page title="Set up two-step sign-in">
        <p>This gateway requires a code from an authenticator app at sign-in. Set it up to continue.</p>
        <TotpSetup />
        {/* someone else at the desk, or no phone at hand: the only other way out */}
        <SignOut />
      </Page>
    </main>
  );
}

export function Account() {
  const me = user.value;
  return (
    <Page title="Your account">
      <dl class="facts">
        <div>
          <dt>Username</dt>
          <dd>{me?.username}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>{me?.role}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(me?.createdAt)}</dd>
        </div>
      </dl>
      <Section title="Change password">
        <PasswordForm />
      </Section>
      <Section title="Two-step sign-in (TOTP)">
        <TotpSetup />
      </Section>
    </Page>
  );
}
