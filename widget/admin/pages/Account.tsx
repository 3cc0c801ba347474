/** The signed-in user's own account: change the password, set up a TOTP authenticator. */
import { useState } from 'preact/hooks';
import { ActionButton, SubmitButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Field } from '../components/Field';
import { Page, Section } from '../components/Page';
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

function TotpSetup() {
  const [secret, setSecret] = useState<{ secret: string; otpauthUrl: string } | undefined>(undefined);
  const [code, setCode] = useState('');
  const action = useAction();
  // a status: announced when the confirmation turns the set-up into this
  if (user.value?.totpEnabled)
    return <p role="status">An authenticator app is set up: sign-in asks for its code.</p>;
  if (secret === undefined)
    return (
      <>
        <p>Add a second step to signing in: a code from an authenticator app.</p>
        <ActionMessages action={action} />
        <ActionButton
          action={action}
          work={async () => {
            setSecret(await startTotp());
            return undefined;
          }}
        >
          Set up an authenticator
        </ActionButton>
      </>
    );
  const submit = onSubmit(() =>
    action.run(async () => {
      await confirmTotp(code.trim());
      return 'The authenticator is set up.';
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <p>
        Add this key to your authenticator app (or open the <a href={secret.otpauthUrl}>otpauth link</a> on
        this device), then enter the code it shows.
      </p>
      <p>
        Key: <code class="secret">{secret.secret}</code>
      </p>
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
