/** A secret the gateway shows once (an access token, a generated password, a webhook's key). */
export function ShownOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <div class="shown-once" role="status">
      <p>
        <strong>{label}</strong> (shown once: copy it now, it cannot be read again)
      </p>
      <output class="secret" aria-label={label}>
        {secret}
      </output>
    </div>
  );
}
