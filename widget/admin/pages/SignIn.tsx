/** Sign in: username and password, then a TOTP code when the account has one set up. */
import { useState } from 'preact/hooks';
import { SubmitButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Field } from '../components/Field';
import { Page } from '../components/Page';
import { onSubmit, useAction } from '../components/useAction';
import { sessionNotice, signIn } from '../state/session';

export function SignIn() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      const outcome = await signIn(username.trim(), password, needsTotp ? totp.trim() : undefined);
      if (outcome === 'totp-required') {
        setNeedsTotp(true);
        return 'Enter the code from your authenticator app.';
      }
      return undefined;
    }),
  );
  return (
    <main id="main" class="sign-in">
      <Page title="Sign in">
        {sessionNotice.value && <p class="message">{sessionNotice.value}</p>}
        <form onSubmit={submit} noValidate>
          <Field label="Username" value={username} onValue={setUsername} autoComplete="username" required />
          <Field
            label="Password"
            type="password"
            value={password}
            onValue={setPassword}
            autoComplete="current-password"
            required
          />
          {needsTotp && (
            <Field
              label="Authentication code"
              value={totp}
              onValue={setTotp}
              inputMode="numeric"
              autoComplete="one-time-code"
              hint="The 6-digit code from your authenticator app"
            />
          )}
          <ActionMessages action={action} />
          <SubmitButton action={action}>Sign in</SubmitButton>
        </form>
      </Page>
    </main>
  );
}
