/**
 * A channel's risk rules (shared/risk/rules.ts) as JSON: read, and for admins edited with the
 * API's validation messages, one per faulty rule field.
 */
import { useState } from 'preact/hooks';
import { get, put, seg } from '../api';
import { canChange } from '../state/session';
import { SubmitButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { Loading } from './Alert';
import { onSubmit, useAction } from './useAction';
import { useLoad } from './useLoad';

function Editor({ entityId, initial }: { entityId: string; initial: unknown }) {
  const [text, setText] = useState(JSON.stringify(initial ?? {}, null, 2));
  const [syntax, setSyntax] = useState<string | undefined>(undefined);
  const action = useAction();
  const submit = onSubmit(() => {
    let rules: unknown;
    try {
      rules = JSON.parse(text);
      setSyntax(undefined);
    } catch (error) {
      setSyntax(`The rules are not valid JSON: ${(error as Error).message}`);
      return;
    }
    return action.run(async () => {
      await put(`/channels/${seg(entityId)}/risk-rules`, { rules });
      return 'The risk rules were saved.';
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <div class="field">
        <label for="risk-rules">Rules (JSON)</label>
        <textarea
          id="risk-rules"
          rows={14}
          spellcheck={false}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          aria-invalid={syntax || action.error ? 'true' : undefined}
          aria-describedby="risk-rules-hint"
        />
        <span class="hint" id="risk-rules-hint">
          blockedBins, blockedCardCountries, blockedBillingCountries, blockedIps, allowedIps, amountLimits,
          velocity, scoring and ruleSets, as the gateway's risk documentation describes them
        </span>
      </div>
      {syntax && (
        <p class="message message-error" role="alert">
          {syntax}
        </p>
      )}
      <ActionMessages action={action} />
      <SubmitButton action={action}>Save risk rules</SubmitButton>
    </form>
  );
}

export function RiskRules({ entityId }: { entityId: string }) {
  const rules = useLoad(() => get<{ rules: unknown }>(`/channels/${seg(entityId)}/risk-rules`), [entityId]);
  if (rules.data === undefined) return <Loading data={rules.data} error={rules.error} />;
  if (!canChange.value) return <pre class="code">{JSON.stringify(rules.data.rules ?? {}, null, 2)}</pre>;
  return <Editor entityId={entityId} initial={rules.data.rules} />;
}
